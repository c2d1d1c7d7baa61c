import type { LendingAdapter } from '../core/LendingAdapter';
import { ctezAdapter } from './ctez/adapter';
import { yupanaAdapter } from './yupana/adapter';

/** Every lending protocol adapter the plugin runs: one line per protocol folder. */
export const LENDING_ADAPTERS: readonly LendingAdapter[] = [yupanaAdapter, ctezAdapter];
