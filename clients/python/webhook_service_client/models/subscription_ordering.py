from enum import StrEnum


class SubscriptionOrdering(StrEnum):
    NONE = "none"
    PER_KEY = "per_key"

    def __str__(self) -> str:
        return str(self.value)
