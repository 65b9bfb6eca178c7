from enum import StrEnum


class RedisDestinationType(StrEnum):
    REDIS = "redis"

    def __str__(self) -> str:
        return str(self.value)
