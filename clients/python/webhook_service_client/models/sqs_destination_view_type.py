from enum import StrEnum


class SqsDestinationViewType(StrEnum):
    SQS = "sqs"

    def __str__(self) -> str:
        return str(self.value)
