from enum import StrEnum


class NatsDestinationType(StrEnum):
    NATS = "nats"

    def __str__(self) -> str:
        return str(self.value)
