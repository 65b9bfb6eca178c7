from enum import StrEnum


class AlertKind(StrEnum):
    DELIVERY_FAILED = "delivery_failed"
    SUBSCRIPTION_DISABLED = "subscription_disabled"

    def __str__(self) -> str:
        return str(self.value)
