from enum import StrEnum


class StockChangeReason(StrEnum):
    ADJUSTMENT = "adjustment"
    CANCELLATION = "cancellation"
    ORDER = "order"

    def __str__(self) -> str:
        return str(self.value)
