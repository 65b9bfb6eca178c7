from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.event_type import EventType
from ..models.signature_scheme import SignatureScheme
from ..models.subscription_ordering import SubscriptionOrdering
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


T = TypeVar("T", bound="SubscriptionCreate")


@_attrs_define
class SubscriptionCreate:
    """A new subscription.

    Attributes:
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
        secret (str | Unset): HMAC signing secret, `whsec_` followed by standard, padded base64 of at least 24 bytes (32
            characters); a supplied one that decodes to fewer bytes, or is not canonical base64, is a 422 naming
            `/body/secret`.
        description (str | Unset): Free text for the owner.
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
        signature (SignatureScheme | Unset): How deliveries are signed (`GET /api/webhooks/v1/event-types` lists both
            under `signature_schemes`).
            - `hmac-sha256` (default): a shared secret (`whsec_`); `webhook-signature: v1,<base64>` and `X-Signature`.
            - `ed25519`: Standard Webhooks asymmetric signatures; `webhook-signature: v1a,<base64>`, verified with the
            subscription's public key (`whpk_`). The private key is generated and kept (sealed) by the service and never
            returned.
        auth (BasicAuth | BearerAuth | OAuth2ClientCredentialsAuth | Unset): How every delivery to this subscription
            authenticates to the receiver, chosen by `type`:
            - `bearer`: `Authorization: Bearer <token>`.
            - `basic`: `Authorization: Basic base64(username:password)` (RFC 7617).
            - `oauth2_client_credentials`: the worker obtains an access token from `token_url` with the
              OAuth 2.0 client credentials grant (RFC 6749 §4.4: a form-encoded POST, the client
              authenticated with HTTP Basic), sends it as `Authorization: Bearer <access_token>`, keeps it
              until shortly before `expires_in` runs out, and on a 401 from the receiver fetches a new one
              and sends that attempt once more. A token endpoint that fails (non-2xx, not JSON without an
              `access_token`, no answer in time, a refused address) fails the attempt with the reason as its
              `error`, and the attempt is retried like any other.
            Credentials are sealed at rest like signing secrets, never returned and never logged; so is
            `token_url` as a whole, which reads show with its query masked (`?********`). `token_url` passes the same
            address rules as callback URLs (422 naming `/body/auth/token_url`).
            A custom `Authorization` header cannot be combined with `auth` (422 naming the header).
             Example: {'type': 'oauth2_client_credentials', 'token_url': 'https://auth.example.com/oauth2/token',
            'client_id': 'webhooks-acme', 'client_secret': 'cs_live_0123456789abcdef', 'scope': 'webhooks.write'}.
        retry (SubscriptionRetry | Unset): A subscription's own retry schedule, in place of the service's
            (`DELIVERY_RETRY_SCHEDULE`,
            `DELIVERY_MAX_ATTEMPTS`; by default 1m, 5m, 15m, 30m, 60m, 120m and 7 attempts). Bounds,
            each refused with a 422 naming its field (`/body/retry/schedule/<i>`,
            `/body/retry/max_attempts`, `/body/retry` for the total) and nothing written:
            `schedule` lists 1 to 10 waits, each a whole number of `s`, `m` or `h` from `1s` to `6h`;
            `max_attempts` is 1 to 10, the first attempt included; the waits those attempts use (the
            last wait repeating) add up to at most `12h`. The service still stretches each wait by up
            to its jitter (`DELIVERY_JITTER`, 10 % by default) and waits longer when a receiver's
            `Retry-After` asks for it. Which answers are retried does not change (see the delivery
            rules); when the attempts run out the administrator is alerted as usual.
             Example: {'schedule': ['30s', '5m', '1h'], 'max_attempts': 5}.
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

    url: str
    events: list[EventType]
    secret: str | Unset = UNSET
    description: str | Unset = UNSET
    max_in_flight: int | Unset = UNSET
    rate_limit: int | Unset = UNSET
    drain_rate: int | Unset = UNSET
    ordering: SubscriptionOrdering | Unset = UNSET
    headers: SubscriptionHeaders | Unset = UNSET
    filter_: SubscriptionFilter | Unset = UNSET
    signature: SignatureScheme | Unset = UNSET
    auth: BasicAuth | BearerAuth | OAuth2ClientCredentialsAuth | Unset = UNSET
    retry: SubscriptionRetry | Unset = UNSET
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
        from ..models.rabbitmq_destination import RabbitmqDestination
        from ..models.redis_destination import RedisDestination
        from ..models.sqs_destination import SqsDestination

        url = self.url

        events = []
        for componentsschemas_subscription_events_item_data in self.events:
            componentsschemas_subscription_events_item = (
                componentsschemas_subscription_events_item_data.value
            )
            events.append(componentsschemas_subscription_events_item)

        secret = self.secret

        description = self.description

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

        signature: str | Unset = UNSET
        if not isinstance(self.signature, Unset):
            signature = self.signature.value

        auth: dict[str, Any] | Unset
        if isinstance(self.auth, Unset):
            auth = UNSET
        elif isinstance(self.auth, BearerAuth) or isinstance(self.auth, BasicAuth):
            auth = self.auth.to_dict()
        else:
            auth = self.auth.to_dict()

        retry: dict[str, Any] | Unset = UNSET
        if not isinstance(self.retry, Unset):
            retry = self.retry.to_dict()

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

        field_dict.update(
            {
                "url": url,
                "events": events,
            }
        )
        if secret is not UNSET:
            field_dict["secret"] = secret
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
        if signature is not UNSET:
            field_dict["signature"] = signature
        if auth is not UNSET:
            field_dict["auth"] = auth
        if retry is not UNSET:
            field_dict["retry"] = retry
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
        url = d.pop("url")

        events = []
        _events = d.pop("events")
        for componentsschemas_subscription_events_item_data in _events:
            componentsschemas_subscription_events_item = EventType(
                componentsschemas_subscription_events_item_data
            )

            events.append(componentsschemas_subscription_events_item)

        secret = d.pop("secret", UNSET)

        description = d.pop("description", UNSET)

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

        _signature = d.pop("signature", UNSET)
        signature: SignatureScheme | Unset
        if isinstance(_signature, Unset):
            signature = UNSET
        else:
            signature = SignatureScheme(_signature)

        def _parse_auth(
            data: object,
        ) -> BasicAuth | BearerAuth | OAuth2ClientCredentialsAuth | Unset:
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
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_subscription_auth_type_2 = (
                OAuth2ClientCredentialsAuth.from_dict(data)
            )

            return componentsschemas_subscription_auth_type_2

        auth = _parse_auth(d.pop("auth", UNSET))

        _retry = d.pop("retry", UNSET)
        retry: SubscriptionRetry | Unset
        if isinstance(_retry, Unset):
            retry = UNSET
        else:
            retry = SubscriptionRetry.from_dict(_retry)

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

        subscription_create = cls(
            url=url,
            events=events,
            secret=secret,
            description=description,
            max_in_flight=max_in_flight,
            rate_limit=rate_limit,
            drain_rate=drain_rate,
            ordering=ordering,
            headers=headers,
            filter_=filter_,
            signature=signature,
            auth=auth,
            retry=retry,
            destination=destination,
        )

        return subscription_create
