from enum import StrEnum


class SubscriptionDestinationViewPassword(StrEnum):
    VALUE_0 = "********"

    def __str__(self) -> str:
        return str(self.value)
