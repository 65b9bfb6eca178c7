from enum import StrEnum


class PullDestinationType(StrEnum):
    PULL = "pull"

    def __str__(self) -> str:
        return str(self.value)
