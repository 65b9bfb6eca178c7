from enum import StrEnum


class RabbitmqDestinationType(StrEnum):
    RABBITMQ = "rabbitmq"

    def __str__(self) -> str:
        return str(self.value)
