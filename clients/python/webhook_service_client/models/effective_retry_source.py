from enum import StrEnum


class EffectiveRetrySource(StrEnum):
    SERVICE = "service"
    SUBSCRIPTION = "subscription"

    def __str__(self) -> str:
        return str(self.value)
