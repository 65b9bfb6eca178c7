from enum import StrEnum


class RabbitmqDestinationViewType(StrEnum):
    RABBITMQ = "rabbitmq"

    def __str__(self) -> str:
        return str(self.value)
