"""Contains all the data models used in inputs/outputs"""

from .alert import Alert
from .alert_kind import AlertKind
from .alert_list import AlertList
from .alert_notification import AlertNotification
from .basic_auth import BasicAuth
from .basic_auth_type import BasicAuthType
from .bearer_auth import BearerAuth
from .bearer_auth_type import BearerAuthType
from .delivery_attempt import DeliveryAttempt
from .delivery_attempt_list import DeliveryAttemptList
from .delivery_attempt_state import DeliveryAttemptState
from .delivery_backoff import DeliveryBackoff
from .delivery_next import DeliveryNext
from .delivery_next_wait import DeliveryNextWait
from .delivery_next_wait_event_state import DeliveryNextWaitEventState
from .delivery_next_wait_reason import DeliveryNextWaitReason
from .delivery_outcome import DeliveryOutcome
from .delivery_timeline import DeliveryTimeline
from .delivery_timeline_state import DeliveryTimelineState
from .delivery_wait import DeliveryWait
from .delivery_wait_reason import DeliveryWaitReason
from .dependency_state import DependencyState
from .deprecated_subscription import DeprecatedSubscription
from .deprecated_subscription_list import DeprecatedSubscriptionList
from .deprecated_version_notification import DeprecatedVersionNotification
from .deprecated_version_notification_data import DeprecatedVersionNotificationData
from .effective_retry import EffectiveRetry
from .effective_retry_source import EffectiveRetrySource
from .event_accepted import EventAccepted
from .event_type import EventType
from .event_type_info import EventTypeInfo
from .event_type_info_required_scopes_item import EventTypeInfoRequiredScopesItem
from .event_type_info_schema import EventTypeInfoSchema
from .event_type_list import EventTypeList
from .get_open_api_document_response_200 import GetOpenApiDocumentResponse200
from .health import Health
from .health_status import HealthStatus
from .held_deliveries import HeldDeliveries
from .http_destination import HttpDestination
from .http_destination_type import HttpDestinationType
from .inbox_message import InboxMessage
from .inbox_message_headers import InboxMessageHeaders
from .inbox_outcome import InboxOutcome
from .inbox_page import InboxPage
from .insufficient_stock_problem import InsufficientStockProblem
from .kafka_destination import KafkaDestination
from .kafka_destination_sasl_mechanism import KafkaDestinationSaslMechanism
from .kafka_destination_type import KafkaDestinationType
from .kafka_destination_view import KafkaDestinationView
from .kafka_destination_view_password import KafkaDestinationViewPassword
from .kafka_destination_view_sasl_mechanism import KafkaDestinationViewSaslMechanism
from .kafka_destination_view_type import KafkaDestinationViewType
from .kafka_destination_view_username import KafkaDestinationViewUsername
from .masked_headers import MaskedHeaders
from .masked_headers_additional_property import MaskedHeadersAdditionalProperty
from .nats_destination import NatsDestination
from .nats_destination_type import NatsDestinationType
from .nats_destination_view import NatsDestinationView
from .nats_destination_view_password import NatsDestinationViewPassword
from .nats_destination_view_token import NatsDestinationViewToken
from .nats_destination_view_type import NatsDestinationViewType
from .nats_destination_view_username import NatsDestinationViewUsername
from .o_auth_2_client_credentials_auth import OAuth2ClientCredentialsAuth
from .o_auth_2_client_credentials_auth_type import OAuth2ClientCredentialsAuthType
from .order import Order
from .order_create import OrderCreate
from .order_created_event_v1 import OrderCreatedEventV1
from .order_created_event_v2 import OrderCreatedEventV2
from .order_event_data import OrderEventData
from .order_item import OrderItem
from .order_item_create import OrderItemCreate
from .order_status import OrderStatus
from .order_summary import OrderSummary
from .order_summary_list import OrderSummaryList
from .order_update import OrderUpdate
from .order_updated_event_data import OrderUpdatedEventData
from .order_updated_event_v1 import OrderUpdatedEventV1
from .order_updated_event_v2 import OrderUpdatedEventV2
from .portal_session_create import PortalSessionCreate
from .portal_session_created import PortalSessionCreated
from .portal_session_info import PortalSessionInfo
from .portal_session_info_grants_item import PortalSessionInfoGrantsItem
from .portal_sessions_expire import PortalSessionsExpire
from .portal_sessions_expired import PortalSessionsExpired
from .problem import Problem
from .problem_errors_item import ProblemErrorsItem
from .product import Product
from .product_list import ProductList
from .pull_destination import PullDestination
from .pull_destination_type import PullDestinationType
from .rabbitmq_destination import RabbitmqDestination
from .rabbitmq_destination_type import RabbitmqDestinationType
from .rabbitmq_destination_view import RabbitmqDestinationView
from .rabbitmq_destination_view_password import RabbitmqDestinationViewPassword
from .rabbitmq_destination_view_type import RabbitmqDestinationViewType
from .rabbitmq_destination_view_username import RabbitmqDestinationViewUsername
from .readiness import Readiness
from .readiness_checks import ReadinessChecks
from .readiness_checks_admission import ReadinessChecksAdmission
from .readiness_status import ReadinessStatus
from .recovery_accepted import RecoveryAccepted
from .recovery_request import RecoveryRequest
from .redelivery_accepted import RedeliveryAccepted
from .redelivery_request import RedeliveryRequest
from .redis_destination import RedisDestination
from .redis_destination_type import RedisDestinationType
from .redis_destination_view import RedisDestinationView
from .redis_destination_view_password import RedisDestinationViewPassword
from .redis_destination_view_type import RedisDestinationViewType
from .redis_destination_view_username import RedisDestinationViewUsername
from .rotated_secret import RotatedSecret
from .secret_rotation import SecretRotation
from .short_item import ShortItem
from .signature_scheme import SignatureScheme
from .signature_scheme_info import SignatureSchemeInfo
from .signature_scheme_info_signature_version import SignatureSchemeInfoSignatureVersion
from .sqs_destination import SqsDestination
from .sqs_destination_type import SqsDestinationType
from .sqs_destination_view import SqsDestinationView
from .sqs_destination_view_access_key_id import SqsDestinationViewAccessKeyId
from .sqs_destination_view_secret_access_key import SqsDestinationViewSecretAccessKey
from .sqs_destination_view_type import SqsDestinationViewType
from .stats_bucket import StatsBucket
from .stats_totals import StatsTotals
from .stock_adjustment import StockAdjustment
from .stock_change_reason import StockChangeReason
from .stock_level import StockLevel
from .stock_list import StockList
from .stock_low_event_data import StockLowEventData
from .stock_low_event_v1 import StockLowEventV1
from .stock_low_event_v2 import StockLowEventV2
from .stock_updated_event_data import StockUpdatedEventData
from .stock_updated_event_v1 import StockUpdatedEventV1
from .stock_updated_event_v2 import StockUpdatedEventV2
from .subscription import Subscription
from .subscription_auth_view import SubscriptionAuthView
from .subscription_auth_view_type import SubscriptionAuthViewType
from .subscription_create import SubscriptionCreate
from .subscription_disabled_notification import SubscriptionDisabledNotification
from .subscription_disabled_notification_data import (
    SubscriptionDisabledNotificationData,
)
from .subscription_event import SubscriptionEvent
from .subscription_event_data import SubscriptionEventData
from .subscription_event_delivery_state import SubscriptionEventDeliveryState
from .subscription_event_list import SubscriptionEventList
from .subscription_filter import SubscriptionFilter
from .subscription_headers import SubscriptionHeaders
from .subscription_health import SubscriptionHealth
from .subscription_health_list import SubscriptionHealthList
from .subscription_list import SubscriptionList
from .subscription_ordering import SubscriptionOrdering
from .subscription_retry import SubscriptionRetry
from .subscription_stats import SubscriptionStats
from .subscription_status import SubscriptionStatus
from .subscription_update import SubscriptionUpdate
from .subscription_update_status import SubscriptionUpdateStatus
from .subscription_update_version import SubscriptionUpdateVersion
from .subscription_version import SubscriptionVersion
from .subscription_with_secret import SubscriptionWithSecret
from .subscription_with_secret_version import SubscriptionWithSecretVersion
from .test_event_data import TestEventData
from .test_event_request import TestEventRequest
from .user import User
from .webhook_meta import WebhookMeta
from .webhook_test_event_v1 import WebhookTestEventV1
from .webhook_test_event_v2 import WebhookTestEventV2

__all__ = (
    "Alert",
    "AlertKind",
    "AlertList",
    "AlertNotification",
    "BasicAuth",
    "BasicAuthType",
    "BearerAuth",
    "BearerAuthType",
    "DeliveryAttempt",
    "DeliveryAttemptList",
    "DeliveryAttemptState",
    "DeliveryBackoff",
    "DeliveryNext",
    "DeliveryNextWait",
    "DeliveryNextWaitEventState",
    "DeliveryNextWaitReason",
    "DeliveryOutcome",
    "DeliveryTimeline",
    "DeliveryTimelineState",
    "DeliveryWait",
    "DeliveryWaitReason",
    "DependencyState",
    "DeprecatedSubscription",
    "DeprecatedSubscriptionList",
    "DeprecatedVersionNotification",
    "DeprecatedVersionNotificationData",
    "EffectiveRetry",
    "EffectiveRetrySource",
    "EventAccepted",
    "EventType",
    "EventTypeInfo",
    "EventTypeInfoRequiredScopesItem",
    "EventTypeInfoSchema",
    "EventTypeList",
    "GetOpenApiDocumentResponse200",
    "Health",
    "HealthStatus",
    "HeldDeliveries",
    "HttpDestination",
    "HttpDestinationType",
    "InboxMessage",
    "InboxMessageHeaders",
    "InboxOutcome",
    "InboxPage",
    "InsufficientStockProblem",
    "KafkaDestination",
    "KafkaDestinationSaslMechanism",
    "KafkaDestinationType",
    "KafkaDestinationView",
    "KafkaDestinationViewPassword",
    "KafkaDestinationViewSaslMechanism",
    "KafkaDestinationViewType",
    "KafkaDestinationViewUsername",
    "MaskedHeaders",
    "MaskedHeadersAdditionalProperty",
    "NatsDestination",
    "NatsDestinationType",
    "NatsDestinationView",
    "NatsDestinationViewPassword",
    "NatsDestinationViewToken",
    "NatsDestinationViewType",
    "NatsDestinationViewUsername",
    "OAuth2ClientCredentialsAuth",
    "OAuth2ClientCredentialsAuthType",
    "Order",
    "OrderCreate",
    "OrderCreatedEventV1",
    "OrderCreatedEventV2",
    "OrderEventData",
    "OrderItem",
    "OrderItemCreate",
    "OrderStatus",
    "OrderSummary",
    "OrderSummaryList",
    "OrderUpdate",
    "OrderUpdatedEventData",
    "OrderUpdatedEventV1",
    "OrderUpdatedEventV2",
    "PortalSessionCreate",
    "PortalSessionCreated",
    "PortalSessionInfo",
    "PortalSessionInfoGrantsItem",
    "PortalSessionsExpire",
    "PortalSessionsExpired",
    "Problem",
    "ProblemErrorsItem",
    "Product",
    "ProductList",
    "PullDestination",
    "PullDestinationType",
    "RabbitmqDestination",
    "RabbitmqDestinationType",
    "RabbitmqDestinationView",
    "RabbitmqDestinationViewPassword",
    "RabbitmqDestinationViewType",
    "RabbitmqDestinationViewUsername",
    "Readiness",
    "ReadinessChecks",
    "ReadinessChecksAdmission",
    "ReadinessStatus",
    "RecoveryAccepted",
    "RecoveryRequest",
    "RedeliveryAccepted",
    "RedeliveryRequest",
    "RedisDestination",
    "RedisDestinationType",
    "RedisDestinationView",
    "RedisDestinationViewPassword",
    "RedisDestinationViewType",
    "RedisDestinationViewUsername",
    "RotatedSecret",
    "SecretRotation",
    "ShortItem",
    "SignatureScheme",
    "SignatureSchemeInfo",
    "SignatureSchemeInfoSignatureVersion",
    "SqsDestination",
    "SqsDestinationType",
    "SqsDestinationView",
    "SqsDestinationViewAccessKeyId",
    "SqsDestinationViewSecretAccessKey",
    "SqsDestinationViewType",
    "StatsBucket",
    "StatsTotals",
    "StockAdjustment",
    "StockChangeReason",
    "StockLevel",
    "StockList",
    "StockLowEventData",
    "StockLowEventV1",
    "StockLowEventV2",
    "StockUpdatedEventData",
    "StockUpdatedEventV1",
    "StockUpdatedEventV2",
    "Subscription",
    "SubscriptionAuthView",
    "SubscriptionAuthViewType",
    "SubscriptionCreate",
    "SubscriptionDisabledNotification",
    "SubscriptionDisabledNotificationData",
    "SubscriptionEvent",
    "SubscriptionEventData",
    "SubscriptionEventDeliveryState",
    "SubscriptionEventList",
    "SubscriptionFilter",
    "SubscriptionHeaders",
    "SubscriptionHealth",
    "SubscriptionHealthList",
    "SubscriptionList",
    "SubscriptionOrdering",
    "SubscriptionRetry",
    "SubscriptionStats",
    "SubscriptionStatus",
    "SubscriptionUpdate",
    "SubscriptionUpdateStatus",
    "SubscriptionUpdateVersion",
    "SubscriptionVersion",
    "SubscriptionWithSecret",
    "SubscriptionWithSecretVersion",
    "TestEventData",
    "TestEventRequest",
    "User",
    "WebhookMeta",
    "WebhookTestEventV1",
    "WebhookTestEventV2",
)
