from enum import StrEnum


class RedisDestinationViewPassword(StrEnum):
    VALUE_0 = "********"

    def __str__(self) -> str:
        return str(self.value)
