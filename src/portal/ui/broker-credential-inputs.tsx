import type { DestinationFields } from './destination-fields';

interface Props {
  fields: DestinationFields;
  set: (change: Partial<DestinationFields>) => void;
  /** The user box's label: "Broker user" where it is required, "User (optional)" where not. */
  userLabel: string;
  passwordLabel: string;
}

/** A broker destination's user and password boxes, never filled from a read (credentials are never shown). */
export function BrokerCredentialInputs({ fields, set, userLabel, passwordLabel }: Props) {
  return (
    <>
      <label>
        {userLabel}
        <input type="text" name="destination-username" autoComplete="off" maxLength={256} value={fields.username} onInput={(e) => set({ username: e.currentTarget.value })} />
      </label>
      <label>
        {passwordLabel}
        <input type="password" name="destination-password" autoComplete="off" maxLength={1024} value={fields.password} onInput={(e) => set({ password: e.currentTarget.value })} />
      </label>
    </>
  );
}
