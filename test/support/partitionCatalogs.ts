import * as fs from 'node:fs';
import { DEFAULTS } from '../../framework/config/InstanceConfig';

const PARTITION = /^(\s*)partition: \{ by: height, span: \d+ \}$/gm;

/**
 * tables.yaml with its height partitions (TablePartitionDecl) of `span` heights each, so a short run
 * crosses several; without a span, as before the tables were partitioned (a database to migrate).
 */
export function catalogWithSpan(span?: number): string {
  const text = fs.readFileSync(DEFAULTS.catalogFile, 'utf8');
  if (!text.match(PARTITION)) throw new Error('tables.yaml declares no height partition');
  return span === undefined
    ? text.replace(new RegExp(`${PARTITION.source}\\n`, 'gm'), '')
    : text.replace(PARTITION, `$1partition: { by: height, span: ${span} }`);
}
