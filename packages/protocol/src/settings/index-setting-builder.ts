/** The declaration helpers every index settings file uses (IndexScope settings). */
import { illegalArgument } from '../errors/catalogue.ts';
import { javaInt } from '../values/params.ts';
import type { Setting, SettingType } from './setting.ts';

export interface IndexSettingProps {
  /** Property.Dynamic: changeable on an open index. */
  dynamic?: boolean;
  /** Property.Final: never changeable after creation. */
  final?: boolean;
  /** Property.PrivateIndex: filled in by Shoal, never set by a client. */
  private?: boolean;
  deprecated?: boolean;
  unsupported?: Setting['unsupported'];
}

export function index(
  key: string,
  type: SettingType,
  def: Setting['default'],
  props: IndexSettingProps = {},
): Setting {
  return {
    key,
    type,
    default: def,
    scope: 'index',
    dynamic: props.dynamic ?? false,
    final: props.final,
    private: props.private,
    deprecated: props.deprecated,
    unsupported: props.unsupported,
  };
}

export const dyn = { dynamic: true } as const;
export const final = { final: true } as const;

export const BOOL: SettingType = { kind: 'bool' };

export function int(min?: number, max?: number): SettingType {
  return { kind: 'int', min, max };
}

export function long(min?: number): SettingType {
  return { kind: 'long', min };
}

/** An enum setting (Setting.enumSetting): values lower case, errors name the Java enum constant. */
export function javaEnum(values: readonly string[], enumClass: string): SettingType {
  return {
    kind: 'enum',
    values,
    invalid: (v) => `No enum constant ${enumClass}.${v.toUpperCase()}`,
  };
}

/** A string setting limited to some values, with the message its parser throws. */
export function oneOf(values: readonly string[], invalid: (v: string) => string): SettingType {
  return {
    kind: 'string',
    validate: (v) => {
      if (!values.includes(v)) throw illegalArgument(invalid(v));
    },
  };
}

/** A `-1` slow log threshold: a time value, `-1` turns it off (TimeValue.MINUS_ONE is its minimum). */
export const THRESHOLD: SettingType = { kind: 'time', minMs: -1, minText: '-1' };

/** ActiveShardCount.parseString: `all`, or a count >= 0. */
export function validateActiveShardCount(value: string): void {
  if (value === 'all') return;
  const n = javaInt(value);
  if (n === undefined) throw illegalArgument(`cannot parse ActiveShardCount[${value}]`);
  if (n < 0) throw illegalArgument('shard count cannot be a negative value');
}
