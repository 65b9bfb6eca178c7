from enum import StrEnum


class SubscriptionDestinationViewUsername(StrEnum):
    VALUE_0 = "********"

    def __str__(self) -> str:
        return str(self.value)
