from enum import StrEnum


class SubscriptionDestinationViewType(StrEnum):
    RABBITMQ = "rabbitmq"

    def __str__(self) -> str:
        return str(self.value)
