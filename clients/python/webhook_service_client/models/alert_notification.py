from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.alert import Alert


T = TypeVar("T", bound="AlertNotification")


@_attrs_define
class AlertNotification:
    """Body of the POST to `ADMIN_ALERT_URL` (the `admin.alert` webhook). At most `ADMIN_ALERTS_PER_OWNER_PER_HOUR` alerts
    of one owner's subscriptions are POSTed per clock hour, across all workers; the owner's further alerts that hour are
    stored and listed by the alerts endpoint but not POSTed, and the owner's next POST (in a later hour) counts them in
    `suppressed`.

        Attributes:
            type_ (Literal['alert']): What the POST carries; always `alert`.
            alert (Alert): An alert raised for administrators, and shown to the owner of the subscription concerned.
            owner_id (str | Unset): Owner of the subscription concerned; absent when the subscription was deleted (those
                alerts share one budget).
            suppressed (int | Unset): On an owner's first POST of an hour, how many of that owner's alerts were stored but
                not POSTed since its previous POST (looking back up to 24 hours); absent when none. List them with `GET
                /api/webhooks/v1/alerts`.
            limit_reached (bool | Unset): Present, and true (never false), only on the owner's last POST this hour; its
                further alerts until the hour ends are stored only, and counted in the next POST's `suppressed`.
    """

    type_: Literal["alert"]
    alert: Alert
    owner_id: str | Unset = UNSET
    suppressed: int | Unset = UNSET
    limit_reached: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        alert = self.alert.to_dict()

        owner_id = self.owner_id

        suppressed = self.suppressed

        limit_reached = self.limit_reached

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "alert": alert,
            }
        )
        if owner_id is not UNSET:
            field_dict["owner_id"] = owner_id
        if suppressed is not UNSET:
            field_dict["suppressed"] = suppressed
        if limit_reached is not UNSET:
            field_dict["limit_reached"] = limit_reached

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.alert import Alert

        d = dict(src_dict)
        type_ = cast(Literal["alert"], d.pop("type"))
        if type_ != "alert":
            raise ValueError(f"type must match const 'alert', got '{type_}'")

        alert = Alert.from_dict(d.pop("alert"))

        owner_id = d.pop("owner_id", UNSET)

        suppressed = d.pop("suppressed", UNSET)

        limit_reached = d.pop("limit_reached", UNSET)

        alert_notification = cls(
            type_=type_,
            alert=alert,
            owner_id=owner_id,
            suppressed=suppressed,
            limit_reached=limit_reached,
        )

        alert_notification.additional_properties = d
        return alert_notification

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
