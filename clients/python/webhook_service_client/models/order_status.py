from enum import StrEnum


class OrderStatus(StrEnum):
    CANCELLED = "cancelled"
    DELIVERED = "delivered"
    PAID = "paid"
    PENDING = "pending"
    SHIPPED = "shipped"

    def __str__(self) -> str:
        return str(self.value)
