from enum import StrEnum


class DeliveryOutcome(StrEnum):
    BLOCKED = "blocked"
    DELIVERED = "delivered"
    HOLD_EXPIRED = "hold_expired"
    HTTP_ERROR = "http_error"
    NETWORK_ERROR = "network_error"
    REJECTED = "rejected"
    TIMEOUT = "timeout"

    def __str__(self) -> str:
        return str(self.value)
