from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_type import EventType
from ..models.subscription_status import SubscriptionStatus

T = TypeVar("T", bound="DeprecatedSubscription")


@_attrs_define
class DeprecatedSubscription:
    """An active subscription whose envelope version is deprecated.

    Attributes:
        id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        owner_id (str): Owner of the API key that created it.
        url (str): Absolute http or https URL, with a host, that the deliveries are POSTed to (HTTPS recommended).
            Unless the operator allows private callbacks, its port must be 80, 443 or from 1024 to 65535, and not one of the
            well-known service ports 1080, 2375, 2376, 2379, 2380, 3306, 5432, 5672, 6379, 6443, 7233, 8500, 9042, 9092,
            9200, 9300, 10250, 11211 and 27017 (refused naming the field, and blocked at connect time).
        events (list[EventType]): Event types delivered to this subscription.
        version (int): Its envelope version, deprecated.
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
        created_at (datetime.datetime): When the subscription was created.
        deprecated_at (datetime.datetime): When its version was deprecated (`x-deprecated-at`).
        sunset (datetime.datetime): When its version is retired (`x-sunset`).
    """

    id: str
    owner_id: str
    url: str
    events: list[EventType]
    version: int
    status: SubscriptionStatus
    created_at: datetime.datetime
    deprecated_at: datetime.datetime
    sunset: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        owner_id = self.owner_id

        url = self.url

        events = []
        for componentsschemas_subscription_events_item_data in self.events:
            componentsschemas_subscription_events_item = (
                componentsschemas_subscription_events_item_data.value
            )
            events.append(componentsschemas_subscription_events_item)

        version = self.version

        status = self.status.value

        created_at = self.created_at.isoformat()

        deprecated_at = self.deprecated_at.isoformat()

        sunset = self.sunset.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "owner_id": owner_id,
                "url": url,
                "events": events,
                "version": version,
                "status": status,
                "created_at": created_at,
                "deprecated_at": deprecated_at,
                "sunset": sunset,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        owner_id = d.pop("owner_id")

        url = d.pop("url")

        events = []
        _events = d.pop("events")
        for componentsschemas_subscription_events_item_data in _events:
            componentsschemas_subscription_events_item = EventType(
                componentsschemas_subscription_events_item_data
            )

            events.append(componentsschemas_subscription_events_item)

        version = d.pop("version")

        status = SubscriptionStatus(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        deprecated_at = datetime.datetime.fromisoformat(d.pop("deprecated_at"))

        sunset = datetime.datetime.fromisoformat(d.pop("sunset"))

        deprecated_subscription = cls(
            id=id,
            owner_id=owner_id,
            url=url,
            events=events,
            version=version,
            status=status,
            created_at=created_at,
            deprecated_at=deprecated_at,
            sunset=sunset,
        )

        deprecated_subscription.additional_properties = d
        return deprecated_subscription

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
