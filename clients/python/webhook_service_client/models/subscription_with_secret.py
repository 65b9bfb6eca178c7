from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_type import EventType
from ..models.signature_scheme import SignatureScheme
from ..models.subscription_ordering import SubscriptionOrdering
from ..models.subscription_status import SubscriptionStatus
from ..models.subscription_with_secret_version import SubscriptionWithSecretVersion
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.effective_retry import EffectiveRetry
    from ..models.held_deliveries import HeldDeliveries
    from ..models.kafka_destination_view import KafkaDestinationView
    from ..models.masked_headers import MaskedHeaders
    from ..models.nats_destination_view import NatsDestinationView
    from ..models.pull_destination import PullDestination
    from ..models.rabbitmq_destination_view import RabbitmqDestinationView
    from ..models.redis_destination_view import RedisDestinationView
    from ..models.sqs_destination_view import SqsDestinationView
    from ..models.subscription_auth_view import SubscriptionAuthView
    from ..models.subscription_filter import SubscriptionFilter


T = TypeVar("T", bound="SubscriptionWithSecret")


@_attrs_define
class SubscriptionWithSecret:
    """A subscription as returned on creation, with its signing secret. The secret is shown only here.

    Attributes:
        id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        url (str): Where a subscription's deliveries go, by its `destination` kind: for `http` (the default) the
            callback URL, absolute http or https, that deliveries are POSTed to (HTTPS recommended); for `rabbitmq` the
            broker's address, `amqps://host[:port][/vhost]` (TLS, port 5671 by default) or `amqp://host[:port][/vhost]`
            (5672), the vhost percent-encoded (`%2F` is `/`, the default when absent); for `kafka` a bootstrap broker,
            `kafka://host[:port]` (9092 by default) or `kafkas://host[:port]` (TLS, 9093), nothing after the port (further
            bootstrap brokers go in the destination's `brokers`); for `nats` the server's address, `tls://host[:port]` (TLS)
            or `nats://host[:port]` (4222 by default), without a path; for `redis` the server's address,
            `rediss://host[:port][/db]` (TLS) or `redis://host[:port][/db]` (6379 by default), `db` the database number (0
            when absent); for `sqs` the queue URL, `https://sqs.<region>.amazonaws.com/<account>/<queue>` (or `http://` for
            an SQS-compatible server), the queue name ending in `.fifo` for a FIFO queue, nothing after it. Never
            credentials (a broker's go in `destination`), never a fragment or a query. The scheme must fit the kind (422
            naming the field). The address rules are the same for every kind: unless the operator allows private callbacks,
            the host must be public and its port 80, 443 or from 1024 to 65535 (a broker URL also its scheme's own port:
            5671 or 5672 for AMQP, 9092 or 9093 for Kafka, 4222 for NATS, 6379 for Redis), and not one of the well-known
            service ports 1080, 2375, 2376, 2379, 2380, 3306, 5432, 5672 (except for amqp), 6379 (except for redis), 6443,
            7233, 8500, 9042, 9092 (except for kafka), 9200, 9300, 10250, 11211 and 27017 (refused naming the field, and
            blocked at connect time). For `pull` it is `pull://<label>`, a name for the consumer shown in listings and the
            attempt log; nothing connects to it, so the address rules do not apply.
        events (list[EventType]): Event types delivered to this subscription.
        status (SubscriptionStatus): Delivery state of a subscription.
            - `active`: events are delivered.
            - `paused`: set by the owner; nothing is sent while paused, and nothing is lost: events emitted meanwhile still
            fan out to it, and each delivery that comes due (a first attempt or a retry) is held durably (`held` counts them
            and says since when). On `active` again they are sent in emission order at the subscription's `drain_rate` (else
            its `rate_limit`, else 10 per second), each as a new attempt series logged as usual. A hold is bounded:
            deliveries still held `SUBSCRIPTION_HOLD_MAX` (default 72 hours) after the pause fail (attempt outcome
            `hold_expired`, one `delivery_failed` alert for the subscription), and from then on the pause cancels, as a
            pause made before holds existed (no `held.since`) does: deliveries that come due are cancelled and events
            emitted meanwhile are not delivered (use recover or redeliver to catch up).
            - `disabled`: set by the service after sustained failure (retries exhausted on N consecutive events, or the
            receiver answered 410 Gone); `disabled_reason` says why and an administrator alert is raised.
            Moves: the owner may move `active` ⇄ `paused` and `disabled` → `active` (re-enable); the service moves `active`
            → `disabled`. A deleted subscription is gone: every path naming it answers 404.
            Held deliveries of a subscription disabled or deleted instead of resumed are cancelled, as its pending retries
            are: `disabled` holds nothing.
        version (SubscriptionWithSecretVersion): Envelope version, set by the path the subscription was created under
            and changed by `PATCH` with `version`.
        created_at (datetime.datetime): When the subscription was created.
        updated_at (datetime.datetime): When the subscription last changed.
        retry (EffectiveRetry): The retry schedule a subscription's deliveries use. Example: {'schedule': ['1m', '5m',
            '15m', '30m', '1h', '2h'], 'max_attempts': 7, 'source': 'service'}.
        signature (SignatureScheme): How deliveries are signed (`GET /api/webhooks/v1/event-types` lists both under
            `signature_schemes`).
            - `hmac-sha256` (default): a shared secret (`whsec_`); `webhook-signature: v1,<base64>` and `X-Signature`.
            - `ed25519`: Standard Webhooks asymmetric signatures; `webhook-signature: v1a,<base64>`, verified with the
            subscription's public key (`whpk_`). The private key is generated and kept (sealed) by the service and never
            returned.
        secret (str): What a receiver verifies deliveries with - the HMAC signing secret (`whsec_`), or for an `ed25519`
            subscription its public key (`whpk_`). The receiver kit's `verify` takes either.
        description (str | Unset): Free text for the owner.
        disabled_reason (str | Unset): Why the service disabled the subscription; present only while `status` is
            `disabled`.
        max_in_flight (int | Unset): Most POSTs one worker sends to the subscription at once. An attempt that would
            exceed it is
            not made yet: it waits a moment (growing, up to 30 s) and is not counted as an attempt, so
            one slow endpoint cannot take a worker's capacity from the others.
        rate_limit (int | Unset): Most deliveries per second to the subscription, a whole number from 1 to 100 (outside
            it: a
            422 naming `/body/rate_limit`, nothing written), held over every worker however many run:
            each second (aligned to the epoch on the service's clock) takes at most this many POSTs. An
            attempt beyond it is not made yet: it waits durably for the next second (spread at random
            over up to 30 s as it is put off again), is not counted as an attempt and is not logged.
            Independent of `max_in_flight`, which bounds POSTs at once; both may be set.
             Example: 10.
        drain_rate (int | Unset): Deliveries per second a resumed subscription's held deliveries are sent at, never
            above its `rate_limit`. At most 50, about what one drain starts one at a time in emission order.
        ordering (SubscriptionOrdering | Unset): `per_key`: events with the same ordering key (an order's events by
            order id, `order:<id>`;
            stock events by product id, `product:<id>`; see the event catalogue's `ordering_key`) reach
            this subscription in the order they were emitted. The next one waits until the one before it
            was delivered, or has finally failed or stopped; events of other keys are not held up. A
            delivery that retries keeps the later events of its key waiting. `none`: each event is
            delivered as soon as it can be. Redeliveries and test events are not ordered.
        headers (MaskedHeaders | Unset): The custom header names of a subscription; every value is shown as `********`.
            Example: {'X-Tenant': '********', 'X-Api-Key': '********'}.
        filter_ (SubscriptionFilter | Unset): Which events the subscription receives, matched against the event's
            canonical form
            `{"type", "id", "data"}` (the same for every envelope version). Keys are field names or
            dotted paths (`data.customer.tier`), or `$and`/`$or` (arrays of filters) and `$not` (a
            filter). A value is a literal (equality), a nested filter, or an object of operators:
            `$eq`, `$neq`, `$gt`, `$gte`, `$lt`, `$lte` (numbers or strings), `$in`, `$nin` (lists of
            scalars), `$exists` (boolean), `$startsWith` (string), `$not` (operators). Where the field
            holds an array, a literal or operator holds when any element does. An event the filter
            does not match makes no attempt for this subscription and is not in its event list. At
            most 4096 bytes and 8 levels deep; an unknown operator or a bad operand is a 422 naming
            its path.
             Example: {'data': {'total': {'$gte': 100}, 'currency': {'$in': ['EUR', 'USD']}}}.
        auth (SubscriptionAuthView | Unset): How deliveries authenticate, as shown on read. Tokens, user names,
            passwords and client secrets are never returned; for `oauth2_client_credentials` the token URL (its query
            masked), client id and scope are. Example: {'type': 'oauth2_client_credentials', 'token_url':
            'https://auth.example.com/oauth2/token', 'client_id': 'webhooks-acme', 'scope': 'webhooks.write'}.
        failing_since (datetime.datetime | Unset): Since when every delivery attempt to it has failed; absent once one
            succeeds. After `ENDPOINT_DISABLE_AFTER` (default 5 days) of this the service disables it.
        public_key (str | Unset): Ed25519 public key, `whpk_` followed by base64 of the raw 32-byte key.
        destination (KafkaDestinationView | NatsDestinationView | PullDestination | RabbitmqDestinationView |
            RedisDestinationView | SqsDestinationView | Unset): A destination other than `http` as shown on read; a broker's
            credentials are masked.
        held (HeldDeliveries | Unset): The deliveries a paused subscription holds, from new events and retries that came
            due alike; each leaves the count when its delivery is started again on resume, or fails at the hold limit, or is
            cancelled with the subscription.
    """

    id: str
    url: str
    events: list[EventType]
    status: SubscriptionStatus
    version: SubscriptionWithSecretVersion
    created_at: datetime.datetime
    updated_at: datetime.datetime
    retry: EffectiveRetry
    signature: SignatureScheme
    secret: str
    description: str | Unset = UNSET
    disabled_reason: str | Unset = UNSET
    max_in_flight: int | Unset = UNSET
    rate_limit: int | Unset = UNSET
    drain_rate: int | Unset = UNSET
    ordering: SubscriptionOrdering | Unset = UNSET
    headers: MaskedHeaders | Unset = UNSET
    filter_: SubscriptionFilter | Unset = UNSET
    auth: SubscriptionAuthView | Unset = UNSET
    failing_since: datetime.datetime | Unset = UNSET
    public_key: str | Unset = UNSET
    destination: (
        KafkaDestinationView
        | NatsDestinationView
        | PullDestination
        | RabbitmqDestinationView
        | RedisDestinationView
        | SqsDestinationView
        | Unset
    ) = UNSET
    held: HeldDeliveries | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.kafka_destination_view import KafkaDestinationView
        from ..models.nats_destination_view import NatsDestinationView
        from ..models.rabbitmq_destination_view import RabbitmqDestinationView
        from ..models.redis_destination_view import RedisDestinationView
        from ..models.sqs_destination_view import SqsDestinationView

        id = self.id

        url = self.url

        events = []
        for componentsschemas_subscription_events_item_data in self.events:
            componentsschemas_subscription_events_item = (
                componentsschemas_subscription_events_item_data.value
            )
            events.append(componentsschemas_subscription_events_item)

        status = self.status.value

        version = self.version.value

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        retry = self.retry.to_dict()

        signature = self.signature.value

        secret = self.secret

        description = self.description

        disabled_reason = self.disabled_reason

        max_in_flight = self.max_in_flight

        rate_limit = self.rate_limit

        drain_rate = self.drain_rate

        ordering: str | Unset = UNSET
        if not isinstance(self.ordering, Unset):
            ordering = self.ordering.value

        headers: dict[str, Any] | Unset = UNSET
        if not isinstance(self.headers, Unset):
            headers = self.headers.to_dict()

        filter_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.filter_, Unset):
            filter_ = self.filter_.to_dict()

        auth: dict[str, Any] | Unset = UNSET
        if not isinstance(self.auth, Unset):
            auth = self.auth.to_dict()

        failing_since: str | Unset = UNSET
        if not isinstance(self.failing_since, Unset):
            failing_since = self.failing_since.isoformat()

        public_key = self.public_key

        destination: dict[str, Any] | Unset
        if isinstance(self.destination, Unset):
            destination = UNSET
        elif (
            isinstance(self.destination, RabbitmqDestinationView)
            or isinstance(self.destination, KafkaDestinationView)
            or isinstance(self.destination, NatsDestinationView)
            or isinstance(self.destination, RedisDestinationView)
            or isinstance(self.destination, SqsDestinationView)
        ):
            destination = self.destination.to_dict()
        else:
            destination = self.destination.to_dict()

        held: dict[str, Any] | Unset = UNSET
        if not isinstance(self.held, Unset):
            held = self.held.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "url": url,
                "events": events,
                "status": status,
                "version": version,
                "created_at": created_at,
                "updated_at": updated_at,
                "retry": retry,
                "signature": signature,
                "secret": secret,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if disabled_reason is not UNSET:
            field_dict["disabled_reason"] = disabled_reason
        if max_in_flight is not UNSET:
            field_dict["max_in_flight"] = max_in_flight
        if rate_limit is not UNSET:
            field_dict["rate_limit"] = rate_limit
        if drain_rate is not UNSET:
            field_dict["drain_rate"] = drain_rate
        if ordering is not UNSET:
            field_dict["ordering"] = ordering
        if headers is not UNSET:
            field_dict["headers"] = headers
        if filter_ is not UNSET:
            field_dict["filter"] = filter_
        if auth is not UNSET:
            field_dict["auth"] = auth
        if failing_since is not UNSET:
            field_dict["failing_since"] = failing_since
        if public_key is not UNSET:
            field_dict["public_key"] = public_key
        if destination is not UNSET:
            field_dict["destination"] = destination
        if held is not UNSET:
            field_dict["held"] = held

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.effective_retry import EffectiveRetry
        from ..models.held_deliveries import HeldDeliveries
        from ..models.kafka_destination_view import KafkaDestinationView
        from ..models.masked_headers import MaskedHeaders
        from ..models.nats_destination_view import NatsDestinationView
        from ..models.pull_destination import PullDestination
        from ..models.rabbitmq_destination_view import RabbitmqDestinationView
        from ..models.redis_destination_view import RedisDestinationView
        from ..models.sqs_destination_view import SqsDestinationView
        from ..models.subscription_auth_view import SubscriptionAuthView
        from ..models.subscription_filter import SubscriptionFilter

        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        events = []
        _events = d.pop("events")
        for componentsschemas_subscription_events_item_data in _events:
            componentsschemas_subscription_events_item = EventType(
                componentsschemas_subscription_events_item_data
            )

            events.append(componentsschemas_subscription_events_item)

        status = SubscriptionStatus(d.pop("status"))

        version = SubscriptionWithSecretVersion(d.pop("version"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        retry = EffectiveRetry.from_dict(d.pop("retry"))

        signature = SignatureScheme(d.pop("signature"))

        secret = d.pop("secret")

        description = d.pop("description", UNSET)

        disabled_reason = d.pop("disabled_reason", UNSET)

        max_in_flight = d.pop("max_in_flight", UNSET)

        rate_limit = d.pop("rate_limit", UNSET)

        drain_rate = d.pop("drain_rate", UNSET)

        _ordering = d.pop("ordering", UNSET)
        ordering: SubscriptionOrdering | Unset
        if isinstance(_ordering, Unset):
            ordering = UNSET
        else:
            ordering = SubscriptionOrdering(_ordering)

        _headers = d.pop("headers", UNSET)
        headers: MaskedHeaders | Unset
        if isinstance(_headers, Unset):
            headers = UNSET
        else:
            headers = MaskedHeaders.from_dict(_headers)

        _filter_ = d.pop("filter", UNSET)
        filter_: SubscriptionFilter | Unset
        if isinstance(_filter_, Unset):
            filter_ = UNSET
        else:
            filter_ = SubscriptionFilter.from_dict(_filter_)

        _auth = d.pop("auth", UNSET)
        auth: SubscriptionAuthView | Unset
        if isinstance(_auth, Unset):
            auth = UNSET
        else:
            auth = SubscriptionAuthView.from_dict(_auth)

        _failing_since = d.pop("failing_since", UNSET)
        failing_since: datetime.datetime | Unset
        if isinstance(_failing_since, Unset):
            failing_since = UNSET
        else:
            failing_since = datetime.datetime.fromisoformat(_failing_since)

        public_key = d.pop("public_key", UNSET)

        def _parse_destination(
            data: object,
        ) -> (
            KafkaDestinationView
            | NatsDestinationView
            | PullDestination
            | RabbitmqDestinationView
            | RedisDestinationView
            | SqsDestinationView
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_destination_view_type_0 = (
                    RabbitmqDestinationView.from_dict(data)
                )

                return componentsschemas_subscription_destination_view_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_destination_view_type_1 = (
                    KafkaDestinationView.from_dict(data)
                )

                return componentsschemas_subscription_destination_view_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_destination_view_type_2 = (
                    NatsDestinationView.from_dict(data)
                )

                return componentsschemas_subscription_destination_view_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_destination_view_type_3 = (
                    RedisDestinationView.from_dict(data)
                )

                return componentsschemas_subscription_destination_view_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_destination_view_type_4 = (
                    SqsDestinationView.from_dict(data)
                )

                return componentsschemas_subscription_destination_view_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_subscription_destination_view_type_5 = (
                PullDestination.from_dict(data)
            )

            return componentsschemas_subscription_destination_view_type_5

        destination = _parse_destination(d.pop("destination", UNSET))

        _held = d.pop("held", UNSET)
        held: HeldDeliveries | Unset
        if isinstance(_held, Unset):
            held = UNSET
        else:
            held = HeldDeliveries.from_dict(_held)

        subscription_with_secret = cls(
            id=id,
            url=url,
            events=events,
            status=status,
            version=version,
            created_at=created_at,
            updated_at=updated_at,
            retry=retry,
            signature=signature,
            secret=secret,
            description=description,
            disabled_reason=disabled_reason,
            max_in_flight=max_in_flight,
            rate_limit=rate_limit,
            drain_rate=drain_rate,
            ordering=ordering,
            headers=headers,
            filter_=filter_,
            auth=auth,
            failing_since=failing_since,
            public_key=public_key,
            destination=destination,
            held=held,
        )

        subscription_with_secret.additional_properties = d
        return subscription_with_secret

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
