from enum import StrEnum


class DeliveryWaitReason(StrEnum):
    BACKOFF = "backoff"
    MAX_IN_FLIGHT = "max_in_flight"
    PULL_OUTCOME = "pull_outcome"
    RATE_LIMIT = "rate_limit"
    RETRY_AFTER = "retry_after"

    def __str__(self) -> str:
        return str(self.value)
