from enum import StrEnum


class BasicAuthType(StrEnum):
    BASIC = "basic"

    def __str__(self) -> str:
        return str(self.value)
