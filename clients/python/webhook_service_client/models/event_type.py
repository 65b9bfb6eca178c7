from enum import StrEnum


class EventType(StrEnum):
    ORDER_CREATED = "order.created"
    ORDER_UPDATED = "order.updated"
    STOCK_LOW = "stock.low"
    STOCK_UPDATED = "stock.updated"
    WEBHOOK_TEST = "webhook.test"

    def __str__(self) -> str:
        return str(self.value)
