from enum import StrEnum


class NatsDestinationViewType(StrEnum):
    NATS = "nats"

    def __str__(self) -> str:
        return str(self.value)
