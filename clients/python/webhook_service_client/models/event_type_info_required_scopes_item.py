from enum import StrEnum


class EventTypeInfoRequiredScopesItem(StrEnum):
    ADMIN = "admin"
    ORDERSWRITE = "orders:write"
    RESOURCESREAD = "resources:read"
    WEBHOOKSREAD = "webhooks:read"
    WEBHOOKSWRITE = "webhooks:write"

    def __str__(self) -> str:
        return str(self.value)
