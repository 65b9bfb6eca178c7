from enum import StrEnum


class RedisDestinationViewType(StrEnum):
    REDIS = "redis"

    def __str__(self) -> str:
        return str(self.value)
