from enum import StrEnum


class DeliveryNextWaitReason(StrEnum):
    ORDERING = "ordering"

    def __str__(self) -> str:
        return str(self.value)
