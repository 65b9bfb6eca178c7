from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.event_type import EventType
from ..models.subscription_ordering import SubscriptionOrdering
from ..models.subscription_update_status import SubscriptionUpdateStatus
from ..models.subscription_update_version import SubscriptionUpdateVersion
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.basic_auth import BasicAuth
    from ..models.bearer_auth import BearerAuth
    from ..models.http_destination import HttpDestination
    from ..models.kafka_destination import KafkaDestination
    from ..models.nats_destination import NatsDestination
    from ..models.o_auth_2_client_credentials_auth import OAuth2ClientCredentialsAuth
    from ..models.pull_destination import PullDestination
    from ..models.rabbitmq_destination import RabbitmqDestination
    from ..models.redis_destination import RedisDestination
    from ..models.sqs_destination import SqsDestination
    from ..models.subscription_filter import SubscriptionFilter
    from ..models.subscription_headers import SubscriptionHeaders
    from ..models.subscription_retry import SubscriptionRetry


T = TypeVar("T", bound="SubscriptionUpdate")


@_attrs_define
class SubscriptionUpdate:
    """Fields to change; at least one.

    Attributes:
        url (str | Unset): Where a subscription's deliveries go, by its `destination` kind: for `http` (the default) the
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
        events (list[EventType] | Unset): Event types delivered to this subscription.
        status (SubscriptionUpdateStatus | Unset): `paused` holds deliveries until `active` resumes them (see
            `SubscriptionStatus`); `active` also re-enables a disabled subscription.
        description (str | Unset): Free text for the owner.
        max_in_flight (int | None | Unset): A new most POSTs a worker sends to this subscription at once (see
            `MaxInFlight`); `null` removes it, back to the service default (`DELIVERY_MAX_IN_FLIGHT`).
        rate_limit (int | None | Unset): A new limit of deliveries per second to this subscription (see `RateLimit`);
            `null` removes it.
        drain_rate (int | None | Unset): A new rate its held deliveries are sent at on resume (see `DrainRate`); `null`
            removes it.
        ordering (SubscriptionOrdering | Unset): `per_key`: events with the same ordering key (an order's events by
            order id, `order:<id>`;
            stock events by product id, `product:<id>`; see the event catalogue's `ordering_key`) reach
            this subscription in the order they were emitted. The next one waits until the one before it
            was delivered, or has finally failed or stopped; events of other keys are not held up. A
            delivery that retries keeps the later events of its key waiting. `none`: each event is
            delivered as soon as it can be. Redeliveries and test events are not ordered.
        headers (SubscriptionHeaders | Unset): Custom request headers for every delivery, name → value (at most 20;
            names are HTTP tokens of at most
            64 characters, values printable ASCII of at most 1024). Names that would break or forge a delivery are
            refused with a 422 naming the field: `host`, every `content-*` (`content-length`, `content-type`,
            `content-encoding`, ...), `expect`, `x-signature*`, `webhook-*` and hop-by-hop headers (`connection`,
            `keep-alive`, `proxy-*`, `te`, `trailer`, `transfer-encoding`, `upgrade`, `http2-settings`), in any case. Values
            may hold credentials: they are sealed at rest
            like signing secrets and never returned. An `sqs` subscription takes at most 4, named as SQS message attributes
            may be (see `SubscriptionDestination`).
             Example: {'X-Tenant': 'acme', 'X-Api-Key': 'k_live_0123456789'}.
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
        auth (BasicAuth | BearerAuth | None | OAuth2ClientCredentialsAuth | Unset): Replaces how deliveries authenticate
            to the receiver; `null` removes it. The credentials are sealed at rest and never returned.
        retry (None | SubscriptionRetry | Unset): A new retry schedule for this subscription (see `SubscriptionRetry`);
            `null` goes back to the service's. The next attempt of every delivery still pending is settled by it.
        version (SubscriptionUpdateVersion | Unset): Moves the subscription to another envelope version. The next
            attempt of every delivery still pending (a retry included) uses it. When the version is deprecated in the
            contract the response carries `Deprecation`, `Sunset` and `Link` as its subscribe path does.
        destination (HttpDestination | KafkaDestination | NatsDestination | PullDestination | RabbitmqDestination |
            RedisDestination | SqsDestination | Unset): Where a subscription's deliveries go, chosen by `type`. Kept apart
            from `url` (which carries the address for every kind) so that HTTP subscriptions, and clients that know nothing
            of destinations, are unchanged on the wire: `url` stays required and means what it always did for them, and a
            broker subscription still shows where it delivers in `url`, in listings and in the attempt log. As in Svix's and
            Hookdeck Outpost's destinations, the kind and its target are named explicitly rather than guessed from the URL.
            - `http` (the default): a signed POST to `url`.
            - `rabbitmq`: the same signed body published to `exchange` with `routing_key` on the broker at `url` (AMQP
            0-9-1), `mandatory` (an unroutable message comes back) and persistent, counted delivered only when the broker
            confirms it (publisher confirms). The signature headers (`X-Signature`, `webhook-id`, `webhook-timestamp`,
            `webhook-signature`) and the custom `headers` travel as message headers, `content-type` is `application/json`
            and `message-id` the event id, so a consumer verifies with the same receiver kit. An unroutable message, an
            exchange that does not exist, refused access or wrong credentials is a `rejected` attempt and stops; a broker
            that is down, a nack or no confirm in time is retried on the subscription's schedule.
            - `kafka`: the same signed body produced to `topic` through the bootstrap broker at `url` (and any further
            `brokers`), keyed by the event's resource (`order:<order_id>` for order events, `product:<product_id>` for stock
            events) so one order's events land in one partition, in the order they were produced; counted delivered only
            when every in-sync replica has it (`acks=all`). The signature headers (`webhook-id` is the event id) and the
            custom `headers` travel as record headers, with `content-type`. SASL credentials (PLAIN, SCRAM-SHA-256 or SCRAM-
            SHA-512) are optional. A topic that does not exist, a refused authorization or failed authentication, or a
            record the broker refuses as invalid or too large is a `rejected` attempt and stops; a broker that is down, a
            leader election or no acknowledgement in time is retried on the subscription's schedule.
            - `nats`: the same signed body published to `subject` on the NATS server at `url`, into the JetStream stream
            that captures the subject, counted delivered only when JetStream acknowledges it (its PubAck: stored in the
            stream). The signature headers and the custom `headers` travel as NATS message headers, with `Content-Type:
            application/json` and `Nats-Msg-Id` the event id (JetStream drops a duplicate within the stream's duplicate
            window). Wrong credentials or a refused permission is a `rejected` attempt and stops; a server that is down, no
            stream for the subject yet (one created later, or electing its leader) or no PubAck in time is retried on the
            subscription's schedule.
            - `redis`: the same signed body added (`XADD`) to the stream `stream` on the Redis server at `url`, as the
            entry's field `body`, beside one field per header (the signature headers, `Content-Type` and the custom
            `headers`); with `maxlen`, the stream is trimmed to about that many entries (`MAXLEN ~`). Counted delivered when
            Redis answers with the entry id. Redis has no de-duplication: a retry after a lost answer adds a second entry,
            told apart by `webhook-id`. Wrong credentials, refused permissions (`NOPERM`) or a key that is not a stream is a
            `rejected` attempt and stops; a server that is down, loading, read-only or out of memory, or no answer in time,
            is retried on the subscription's schedule.
            - `sqs`: the same signed body sent (`SendMessage`) to the Amazon SQS queue whose queue URL is `url` (or to an
            SQS-compatible server's), signed (AWS Signature Version 4) for `region` with `access_key_id` and
            `secret_access_key`, and counted delivered only when SQS answers with the message's `MessageId` (the queue
            stored it). The signature headers, `Content-Type` and the custom `headers` travel as String message attributes.
            SQS carries at most 10 attributes and the service's take up to 6, so an `sqs` subscription takes at most 4
            custom `headers`, named as SQS allows (letters, digits, `-`, `_` and single `.` inside, not beginning with
            `AWS.` or `Amazon.`), 422 naming the field otherwise. A queue URL ending in `.fifo` is a FIFO queue:
            `MessageGroupId` is the event's resource (as Kafka's key: one order's events in the order they were sent) and
            `MessageDeduplicationId` the event id (SQS drops a second copy within 5 minutes). A queue that does not exist,
            refused access, an unknown access key or a wrong secret, or a message SQS refuses as invalid or too large is a
            `rejected` attempt and stops; throttling, an error on SQS's side (5xx), a network failure or no answer in time
            is retried on the subscription's schedule.
            - `pull`: nothing is sent; each attempt puts the same signed message in the subscription's inbox, which a
            consumer reads (`listInboxMessages`, a long poll) and answers (`reportInboxOutcome`). The reported answer is the
            attempt's outcome, settled as an HTTP answer is; no report within `ack_deadline_seconds` (default 30) is a
            `timeout`, retried on the schedule. `url` is `pull://<label>`; `headers`, `max_in_flight` and `rate_limit` (for
            what the service sends) are refused (422 naming each), as `auth` is.
            Credentials are sealed at rest like signing secrets and never returned. `auth` is for `http` only (422 naming
            it).
             Example: {'type': 'rabbitmq', 'exchange': 'webhooks', 'routing_key': 'orders.created', 'username': 'hooks',
            'password': 'correct-horse-battery-staple'}.
    """

    url: str | Unset = UNSET
    events: list[EventType] | Unset = UNSET
    status: SubscriptionUpdateStatus | Unset = UNSET
    description: str | Unset = UNSET
    max_in_flight: int | None | Unset = UNSET
    rate_limit: int | None | Unset = UNSET
    drain_rate: int | None | Unset = UNSET
    ordering: SubscriptionOrdering | Unset = UNSET
    headers: SubscriptionHeaders | Unset = UNSET
    filter_: SubscriptionFilter | Unset = UNSET
    auth: BasicAuth | BearerAuth | None | OAuth2ClientCredentialsAuth | Unset = UNSET
    retry: None | SubscriptionRetry | Unset = UNSET
    version: SubscriptionUpdateVersion | Unset = UNSET
    destination: (
        HttpDestination
        | KafkaDestination
        | NatsDestination
        | PullDestination
        | RabbitmqDestination
        | RedisDestination
        | SqsDestination
        | Unset
    ) = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.basic_auth import BasicAuth
        from ..models.bearer_auth import BearerAuth
        from ..models.http_destination import HttpDestination
        from ..models.kafka_destination import KafkaDestination
        from ..models.nats_destination import NatsDestination
        from ..models.o_auth_2_client_credentials_auth import (
            OAuth2ClientCredentialsAuth,
        )
        from ..models.rabbitmq_destination import RabbitmqDestination
        from ..models.redis_destination import RedisDestination
        from ..models.sqs_destination import SqsDestination
        from ..models.subscription_retry import SubscriptionRetry

        url = self.url

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for componentsschemas_subscription_events_item_data in self.events:
                componentsschemas_subscription_events_item = (
                    componentsschemas_subscription_events_item_data.value
                )
                events.append(componentsschemas_subscription_events_item)

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        description = self.description

        max_in_flight: int | None | Unset
        if isinstance(self.max_in_flight, Unset):
            max_in_flight = UNSET
        else:
            max_in_flight = self.max_in_flight

        rate_limit: int | None | Unset
        if isinstance(self.rate_limit, Unset):
            rate_limit = UNSET
        else:
            rate_limit = self.rate_limit

        drain_rate: int | None | Unset
        if isinstance(self.drain_rate, Unset):
            drain_rate = UNSET
        else:
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

        auth: dict[str, Any] | None | Unset
        if isinstance(self.auth, Unset):
            auth = UNSET
        elif (
            isinstance(self.auth, BearerAuth)
            or isinstance(self.auth, BasicAuth)
            or isinstance(self.auth, OAuth2ClientCredentialsAuth)
        ):
            auth = self.auth.to_dict()
        else:
            auth = self.auth

        retry: dict[str, Any] | None | Unset
        if isinstance(self.retry, Unset):
            retry = UNSET
        elif isinstance(self.retry, SubscriptionRetry):
            retry = self.retry.to_dict()
        else:
            retry = self.retry

        version: int | Unset = UNSET
        if not isinstance(self.version, Unset):
            version = self.version.value

        destination: dict[str, Any] | Unset
        if isinstance(self.destination, Unset):
            destination = UNSET
        elif (
            isinstance(self.destination, HttpDestination)
            or isinstance(self.destination, RabbitmqDestination)
            or isinstance(self.destination, KafkaDestination)
            or isinstance(self.destination, NatsDestination)
            or isinstance(self.destination, RedisDestination)
            or isinstance(self.destination, SqsDestination)
        ):
            destination = self.destination.to_dict()
        else:
            destination = self.destination.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if events is not UNSET:
            field_dict["events"] = events
        if status is not UNSET:
            field_dict["status"] = status
        if description is not UNSET:
            field_dict["description"] = description
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
        if retry is not UNSET:
            field_dict["retry"] = retry
        if version is not UNSET:
            field_dict["version"] = version
        if destination is not UNSET:
            field_dict["destination"] = destination

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.basic_auth import BasicAuth
        from ..models.bearer_auth import BearerAuth
        from ..models.http_destination import HttpDestination
        from ..models.kafka_destination import KafkaDestination
        from ..models.nats_destination import NatsDestination
        from ..models.o_auth_2_client_credentials_auth import (
            OAuth2ClientCredentialsAuth,
        )
        from ..models.pull_destination import PullDestination
        from ..models.rabbitmq_destination import RabbitmqDestination
        from ..models.redis_destination import RedisDestination
        from ..models.sqs_destination import SqsDestination
        from ..models.subscription_filter import SubscriptionFilter
        from ..models.subscription_headers import SubscriptionHeaders
        from ..models.subscription_retry import SubscriptionRetry

        d = dict(src_dict)
        url = d.pop("url", UNSET)

        _events = d.pop("events", UNSET)
        events: list[EventType] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for componentsschemas_subscription_events_item_data in _events:
                componentsschemas_subscription_events_item = EventType(
                    componentsschemas_subscription_events_item_data
                )

                events.append(componentsschemas_subscription_events_item)

        _status = d.pop("status", UNSET)
        status: SubscriptionUpdateStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = SubscriptionUpdateStatus(_status)

        description = d.pop("description", UNSET)

        def _parse_max_in_flight(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_in_flight = _parse_max_in_flight(d.pop("max_in_flight", UNSET))

        def _parse_rate_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_limit = _parse_rate_limit(d.pop("rate_limit", UNSET))

        def _parse_drain_rate(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        drain_rate = _parse_drain_rate(d.pop("drain_rate", UNSET))

        _ordering = d.pop("ordering", UNSET)
        ordering: SubscriptionOrdering | Unset
        if isinstance(_ordering, Unset):
            ordering = UNSET
        else:
            ordering = SubscriptionOrdering(_ordering)

        _headers = d.pop("headers", UNSET)
        headers: SubscriptionHeaders | Unset
        if isinstance(_headers, Unset):
            headers = UNSET
        else:
            headers = SubscriptionHeaders.from_dict(_headers)

        _filter_ = d.pop("filter", UNSET)
        filter_: SubscriptionFilter | Unset
        if isinstance(_filter_, Unset):
            filter_ = UNSET
        else:
            filter_ = SubscriptionFilter.from_dict(_filter_)

        def _parse_auth(
            data: object,
        ) -> BasicAuth | BearerAuth | None | OAuth2ClientCredentialsAuth | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_auth_type_0 = BearerAuth.from_dict(data)

                return componentsschemas_subscription_auth_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_auth_type_1 = BasicAuth.from_dict(data)

                return componentsschemas_subscription_auth_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_auth_type_2 = (
                    OAuth2ClientCredentialsAuth.from_dict(data)
                )

                return componentsschemas_subscription_auth_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                BasicAuth | BearerAuth | None | OAuth2ClientCredentialsAuth | Unset,
                data,
            )

        auth = _parse_auth(d.pop("auth", UNSET))

        def _parse_retry(data: object) -> None | SubscriptionRetry | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                retry_type_0 = SubscriptionRetry.from_dict(data)

                return retry_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SubscriptionRetry | Unset, data)

        retry = _parse_retry(d.pop("retry", UNSET))

        _version = d.pop("version", UNSET)
        version: SubscriptionUpdateVersion | Unset
        if isinstance(_version, Unset):
            version = UNSET
        else:
            version = SubscriptionUpdateVersion(_version)

        def _parse_destination(
            data: object,
        ) -> (
            HttpDestination
            | KafkaDestination
            | NatsDestination
            | PullDestination
            | RabbitmqDestination
            | RedisDestination
            | SqsDestination
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_destination_type_0 = (
                    HttpDestination.from_dict(data)
                )

                return componentsschemas_subscription_destination_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_destination_type_1 = (
                    RabbitmqDestination.from_dict(data)
                )

                return componentsschemas_subscription_destination_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_destination_type_2 = (
                    KafkaDestination.from_dict(data)
                )

                return componentsschemas_subscription_destination_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_destination_type_3 = (
                    NatsDestination.from_dict(data)
                )

                return componentsschemas_subscription_destination_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_destination_type_4 = (
                    RedisDestination.from_dict(data)
                )

                return componentsschemas_subscription_destination_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_subscription_destination_type_5 = (
                    SqsDestination.from_dict(data)
                )

                return componentsschemas_subscription_destination_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_subscription_destination_type_6 = (
                PullDestination.from_dict(data)
            )

            return componentsschemas_subscription_destination_type_6

        destination = _parse_destination(d.pop("destination", UNSET))

        subscription_update = cls(
            url=url,
            events=events,
            status=status,
            description=description,
            max_in_flight=max_in_flight,
            rate_limit=rate_limit,
            drain_rate=drain_rate,
            ordering=ordering,
            headers=headers,
            filter_=filter_,
            auth=auth,
            retry=retry,
            version=version,
            destination=destination,
        )

        return subscription_update
