/**
 * What a merge did, step by step, for provenance ("what did this part
 * override, what did it lose, and why"). Tracing is off unless a tracer is
 * given, so plain merges pay nothing for it.
 */
import { Origin, PyValue } from '../py/values';

export type PathSegment = PyValue;

export type MergeEvent =
  | { kind: 'added'; path: PathSegment[]; value: PyValue; origin?: Origin }
  | { kind: 'replaced'; path: PathSegment[]; old: PyValue; value: PyValue; oldOrigin?: Origin; origin?: Origin; reason: string }
  | { kind: 'kept'; path: PathSegment[]; old: PyValue; rejected: PyValue; oldOrigin?: Origin; origin?: Origin; reason: string }
  | { kind: 'deleted'; path: PathSegment[]; old: PyValue; oldOrigin?: Origin; origin?: Origin; reason: string }
  | { kind: 'extended'; path: PathSegment[]; how: 'append' | 'prepend'; count: number; value: PyValue; origin?: Origin; oldOrigin?: Origin }
  | { kind: 'dropped-items'; path: PathSegment[]; rejected: PyValue[]; origin?: Origin; reason: string }
  | { kind: 'concatenated'; path: PathSegment[]; old: string; value: string; origin?: Origin };

export interface MergeTracer {
  event(e: MergeEvent): void;
}

/** Where the two sides of the current merge step live. */
export interface MergeContext {
  path: PathSegment[];
  oldOrigin?: Origin;
  newOrigin?: Origin;
}
