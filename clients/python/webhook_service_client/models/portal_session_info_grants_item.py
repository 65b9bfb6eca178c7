from enum import StrEnum


class PortalSessionInfoGrantsItem(StrEnum):
    ALERTSREAD = "alerts:read"
    RESOURCESREAD = "resources:read"
    WEBHOOKSREAD = "webhooks:read"
    WEBHOOKSWRITE = "webhooks:write"

    def __str__(self) -> str:
        return str(self.value)
