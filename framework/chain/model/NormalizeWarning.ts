/** Something the normalizer met and handled generically instead of dropping it or throwing. */
export interface NormalizeWarning {
  code:
    | 'unknown_kind'
    | 'unknown_balance_update_kind'
    | 'missing_metadata'
    | 'bad_number'
    | 'malformed_content'
    | 'aggregate_mismatch';
  message: string;
  level?: number;
  blockHash?: string;
  opHash?: string;
  kind?: string;
}

export type WarningSink = (warning: NormalizeWarning) => void;
