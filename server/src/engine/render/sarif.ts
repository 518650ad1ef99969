/**
 * SARIF 2.1.0 logs (GitHub code scanning and other CI tools show the results inline), for the CLI's
 * `--check` (schema problems) and `--lint` (the editor's findings): one run of one tool, file paths as
 * given (relative to the working directory, with forward slashes), 1-based regions.
 */
import type { Severity } from '../findings/findings';

export type SarifLevel = 'error' | 'warning' | 'note';

/** SARIF's level for the editor's severity: Information and hints are notes. */
export const SARIF_LEVEL: Record<Severity, SarifLevel> = { error: 'error', warning: 'warning', info: 'note', hint: 'note' };

export interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  defaultConfiguration?: { level: SarifLevel };
}

export interface SarifRegion {
  startLine: number;
  startColumn?: number;
  endLine?: number;
  endColumn?: number;
}

export interface SarifResult {
  ruleId: string;
  level: SarifLevel;
  message: string;
  /** Where the problem is written; none for a problem no file holds. */
  file?: string;
  region?: SarifRegion;
  /** Other places the message refers to (the value that replaced this one). */
  related?: Array<{ file: string; region?: SarifRegion; message: string }>;
  properties?: Record<string, unknown>;
}

export function sarifLog(driver: { version?: string; informationUri: string; rules: SarifRule[] }, results: SarifResult[], properties?: Record<string, unknown>): unknown {
  const ruleIndex = new Map(driver.rules.map((r, i) => [r.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'cloud-config-merge', ...(driver.version ? { version: driver.version } : {}), informationUri: driver.informationUri, rules: driver.rules } },
        ...(properties ? { properties } : {}),
        results: results.map((r) => ({
          ruleId: r.ruleId,
          ruleIndex: ruleIndex.get(r.ruleId),
          level: r.level,
          message: { text: r.message },
          locations: r.file ? [physicalLocation(r.file, r.region)] : [],
          ...(r.related?.length ? { relatedLocations: r.related.map((l, id) => ({ id, ...physicalLocation(l.file, l.region), message: { text: l.message } })) } : {}),
          ...(r.properties ? { properties: r.properties } : {}),
        })),
      },
    ],
  };
}

function physicalLocation(file: string, region: SarifRegion | undefined) {
  return { physicalLocation: { artifactLocation: { uri: file.split('\\').join('/').replace(/^\.\//, '') }, ...(region ? { region } : {}) } };
}
