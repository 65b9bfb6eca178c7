from enum import StrEnum


class ReadinessChecksAdmission(StrEnum):
    OPEN = "open"
    SATURATED = "saturated"

    def __str__(self) -> str:
        return str(self.value)
