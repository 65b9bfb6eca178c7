from enum import StrEnum


class DeliveryNextWaitEventState(StrEnum):
    IN_DELIVERY = "in_delivery"
    NOT_LOGGED = "not_logged"

    def __str__(self) -> str:
        return str(self.value)
