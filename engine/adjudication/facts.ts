import { ruleError, type RuleError } from '../errors.js';
import { BLANK, splitTiles } from '../tiles.js';
import type { DisputeKind, Scores } from './dispute.js';

/** A tile in notation: `?` or capitals, Ñ (U+00D1) and the middle dot (U+00B7) written as escapes to keep bundles ASCII. */
const TILE_FACE = /^(\?|[A-Z\u00D1\u00B7]+)$/u;

/**
 * Reads typed facts from a JSON object, keeping the first problem. Every accessor returns a usable
 * placeholder after a failure so a parser can run to the end and report the first error.
 */
export class Facts {
  error: RuleError | undefined;
  private readonly used: Set<string>;
  /**
   * `prefix` names the object inside the dispute (`games[0].`) when reading one item of a list; such an
   * item has no `kind` or `description` of its own.
   */
  constructor(
    private readonly kind: DisputeKind,
    private readonly obj: Readonly<Record<string, unknown>>,
    private readonly prefix = '',
  ) {
    this.used = new Set(prefix === '' ? ['kind', 'description'] : []);
  }

  fail(field: string, problem: string, value?: unknown): void {
    const path = `${this.prefix}${field}`;
    this.error ??= ruleError('INVALID_DISPUTE', `Dispute ${this.kind}: ${path} ${problem}.`, { kind: this.kind, field: path, value });
  }

  /** A child reader for an object inside this one (an item of a list), whose first error becomes this one's. */
  item(field: string, value: unknown): Facts | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.fail(field, 'must be an object', value);
      return undefined;
    }
    return new Facts(this.kind, value as Record<string, unknown>, `${this.prefix}${field}.`);
  }

  /** Adopts a child reader's first error. */
  adopt(child: Facts): void {
    this.error ??= child.error;
  }

  /** true/false, or null when left out (or null): the kind's parser decides. */
  maybeBool(field: string): boolean | null {
    const v = this.raw(field);
    if (v === undefined || v === null) return null;
    return this.bool(field);
  }

  private raw(field: string): unknown {
    this.used.add(field);
    return this.obj[field];
  }

  /** Integer in [min, max]; `fallback` when absent (undefined = required). */
  int(field: string, min: number, max: number, fallback?: number): number {
    const v = this.raw(field);
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      this.fail(field, v === undefined ? 'is required (an integer)' : `must be an integer, not ${JSON.stringify(v)}`, v);
      return min;
    }
    if (v < min || v > max) this.fail(field, `must be between ${min} and ${max}, not ${v}`, v);
    return v;
  }

  /** Non-negative number (seconds, minutes). */
  seconds(field: string, max: number, nullable = false): number | null {
    const v = this.raw(field);
    if (nullable && (v === undefined || v === null)) return null;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      this.fail(field, v === undefined ? 'is required (a number)' : `must be a number, not ${JSON.stringify(v)}`, v);
      return 0;
    }
    if (v < 0 || v > max) this.fail(field, `must be between 0 and ${max}, not ${v}`, v);
    return v;
  }

  bool(field: string, fallback?: boolean): boolean {
    const v = this.raw(field);
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v !== 'boolean') {
      this.fail(field, v === undefined ? 'is required (true or false)' : `must be true or false, not ${JSON.stringify(v)}`, v);
      return false;
    }
    return v;
  }

  oneOf<T extends string>(field: string, values: readonly T[]): T {
    const v = this.raw(field);
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
      this.fail(field, `must be one of ${values.join(', ')}, not ${JSON.stringify(v)}`, v);
      return values[0]!;
    }
    return v as T;
  }

  scores(field: string, nullable = false): Scores | null {
    const v = this.raw(field);
    if (nullable && (v === undefined || v === null)) return null;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      this.fail(field, 'must be an object {"player": n, "opponent": n}', v);
      return { player: 0, opponent: 0 };
    }
    const r = v as Record<string, unknown>;
    for (const side of ['player', 'opponent'] as const) {
      if (typeof r[side] !== 'number' || !Number.isInteger(r[side]) || Math.abs(r[side] as number) > 100_000) {
        this.fail(`${field}.${side}`, 'must be an integer', r[side]);
        return { player: 0, opponent: 0 };
      }
    }
    const extra = Object.keys(r).filter((k) => k !== 'player' && k !== 'opponent');
    if (extra.length) this.fail(`${field}.${extra[0]}`, 'is not a field (use player and opponent)', r[extra[0]!]);
    return { player: r.player as number, opponent: r.opponent as number };
  }

  /** One letter tile as written in notation (`A`, `[CH]` or `CH`); the blank only if `blankOk`. */
  letter(field: string, blankOk = false): string {
    const v = this.raw(field);
    const tiles = typeof v === 'string' ? splitTiles(v.length > 1 && !v.startsWith('[') ? `[${v}]` : v) : undefined;
    const t = tiles?.length === 1 ? tiles[0]! : undefined;
    if (t === undefined || !TILE_FACE.test(t) || (t === BLANK && !blankOk)) {
      this.fail(
        field,
        `must be one ${blankOk ? 'tile' : 'letter'} in capitals${blankOk ? ' or ? for a blank' : ''}, not ${JSON.stringify(v)}`,
        v,
      );
      return 'A';
    }
    return t;
  }

  /** Tiles as a string in notation (`AADDLPO`, `?` a blank, `[CH]` a digraph); `fallback` when absent. */
  tiles(field: string, min: number, max: number, fallback?: readonly string[]): readonly string[] {
    const v = this.raw(field);
    if (v === undefined && fallback !== undefined) return fallback;
    const tiles = typeof v === 'string' ? splitTiles(v) : undefined;
    if (tiles === undefined || tiles.some((t) => !TILE_FACE.test(t))) {
      this.fail(field, `must be tiles in capitals with ? for a blank (e.g. "AADDLPO"), not ${JSON.stringify(v)}`, v);
      return [];
    }
    if (tiles.length < min || tiles.length > max) this.fail(field, `must hold ${min}–${max} tiles, not ${tiles.length}`, v);
    return tiles;
  }

  array(field: string, minLength: number): readonly unknown[] {
    const v = this.raw(field);
    if (!Array.isArray(v)) {
      this.fail(field, 'must be a list', v);
      return [];
    }
    if (v.length < minLength) this.fail(field, `must have at least ${minLength} entr${minLength === 1 ? 'y' : 'ies'}`, v);
    return v;
  }

  /** Rejects fields the kind does not have, so a typo is not silently ignored. */
  noExtras(): void {
    const extra = Object.keys(this.obj).find((k) => !this.used.has(k));
    if (extra !== undefined) this.fail(extra, 'is not a fact of this dispute kind', this.obj[extra]);
    const d = this.obj.description;
    if (this.prefix === '' && d !== undefined && typeof d !== 'string') this.fail('description', 'must be a string', d);
  }
}
