/**
 * Before Babylon (protocols 001–004) a contract had at most one bigmap and `big_map_diff` named no
 * id; the Babylon migration numbered the mainnet ones. These are the ids it gave (a fact of mainnet's
 * history), so pre-Babylon updates land in the bigmap the later, id-carrying updates use.
 */
const MAINNET_ATHENS_BIGMAP_IDS: ReadonlyMap<string, number> = new Map([
  ['KT1LvAUw8xXH2X4WQRKUYvSiDuXkh15kNC1B', 0],
  ['KT1WRUe3csC1jiThN9KUtaji2bd412upfn1E', 1],
  ['KT1UDc2ZUoAAvv8amw2DqVuQK1fKjb1HjxR4', 2],
  ['KT1R3uoZ6W1ZxEwzqtv75Ro7DhVY6UAcxuK2', 3],
  ['KT1VG2WtYdSWz5E7chTeAdDPZNy2MpP8pTfL', 4],
  ['KT1CvzXrz19fnHKuWedFY3WqmVAB7kMTPLLS', 5],
  ['KT1FbkiY8Y1gSh4x9QVzfvtcUrXEQAx7wYnf', 6],
  ['KT1SAaFjYUD5KFYidYxPzpnf6HgFs4oAJuTz', 7],
  ['KT1A1N85VE2Mi3zuDvKidWNy6P6Fj4iRz2rA', 8],
  ['KT1UvfyLytrt71jh63YV4Yex5SmbNXpWHxtg', 9],
  ['KT1REHQ183LzfoVoqiDR87mCrt7CLUH1MbcV', 10],
]);

/** The bigmap id of a pre-Babylon contract's only bigmap; undefined for contracts the migration did not number. */
export function athensBigmapId(contract: string | undefined): number | undefined {
  return contract === undefined ? undefined : MAINNET_ATHENS_BIGMAP_IDS.get(contract);
}
