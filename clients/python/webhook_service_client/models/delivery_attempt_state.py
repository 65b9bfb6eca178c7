from enum import StrEnum


class DeliveryAttemptState(StrEnum):
    DELIVERED = "delivered"
    FAILED = "failed"
    RETRYING = "retrying"
    STOPPED = "stopped"

    def __str__(self) -> str:
        return str(self.value)
