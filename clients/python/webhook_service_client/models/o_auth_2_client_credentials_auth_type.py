from enum import StrEnum


class OAuth2ClientCredentialsAuthType(StrEnum):
    OAUTH2_CLIENT_CREDENTIALS = "oauth2_client_credentials"

    def __str__(self) -> str:
        return str(self.value)
