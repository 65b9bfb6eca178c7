from enum import StrEnum


class KafkaDestinationViewUsername(StrEnum):
    VALUE_0 = "********"

    def __str__(self) -> str:
        return str(self.value)
