from enum import StrEnum


class HttpDestinationType(StrEnum):
    HTTP = "http"

    def __str__(self) -> str:
        return str(self.value)
