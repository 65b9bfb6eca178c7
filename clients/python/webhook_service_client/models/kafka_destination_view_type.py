from enum import StrEnum


class KafkaDestinationViewType(StrEnum):
    KAFKA = "kafka"

    def __str__(self) -> str:
        return str(self.value)
