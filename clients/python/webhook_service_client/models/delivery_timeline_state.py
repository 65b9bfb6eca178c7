from enum import StrEnum


class DeliveryTimelineState(StrEnum):
    CANCELLED = "cancelled"
    DELIVERED = "delivered"
    FAILED = "failed"
    PENDING = "pending"
    RETRYING = "retrying"
    STOPPED = "stopped"

    def __str__(self) -> str:
        return str(self.value)
