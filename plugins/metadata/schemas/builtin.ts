/**
 * The predefined metadata schemas (JSON Schema draft 2019-09), one per namespace of an entry. Field
 * lists follow the original's v17 schemas so that TzPro SDK clients decode every entry.
 */
type Schema = Record<string, unknown>;

const ID = (name: string): string => `https://tzidx.dev/metadata/schemas/${name}.json`;
const DRAFT = 'https://json-schema.org/draft/2019-09/schema';

const str = { type: 'string' };
const strList = { type: 'array', items: str };
const uri = { type: 'string', pattern: '^(https?|ipfs|tezos-storage|sha256)://?\\S*$' };
const tzAddress = { type: 'string', pattern: '^(tz[1-4]|KT1|txr1|sr1)[1-9A-HJ-NP-Za-km-z]{33}$' };
const dateTime = { type: 'string', format: 'date-time' };

function schema(name: string, title: string, body: Schema): Schema {
  return { $schema: DRAFT, $id: ID(name), title, ...body };
}

/** An object schema whose fields are all optional. */
function record(name: string, title: string, properties: Schema): Schema {
  return schema(name, title, { type: 'object', properties });
}

const ALIAS_KINDS = [
  'validator',
  'tf',
  'payout',
  'merchant',
  'exchange',
  'custodian',
  'token',
  'dex',
  'factory',
  'mintery',
  'oracle',
  'admin',
  'deployer',
  'registry',
  'charity',
  'nft',
  'game',
  'dao',
  'treasury',
  'bridge',
  'lending',
  'farm',
  'insurance',
  'multisig',
  'market',
  'crowdsale',
  'user',
  'contract',
  'collection',
  'other',
];

export const BUILTIN_SCHEMAS: Record<string, Schema> = {
  alias: schema('alias', 'common name, logo and classification', {
    type: 'object',
    required: ['name', 'kind'],
    properties: {
      name: { type: 'string', minLength: 1 },
      kind: { enum: ALIAS_KINDS },
      description: str,
      category: str,
      logo: str,
      tags: strList,
    },
  }),
  asset: schema('asset', 'generic layer-2 asset information', {
    type: 'object',
    required: ['standard', 'symbol'],
    properties: {
      standard: str,
      symbol: str,
      decimals: { type: 'integer', minimum: 0, maximum: 36 },
      version: str,
      homepage: uri,
    },
  }),
  baker: schema('baker', 'baker information', {
    type: 'object',
    required: ['status'],
    properties: {
      status: { enum: ['public', 'private', 'closing', 'closed'] },
      fee: { type: 'number', minimum: 0, maximum: 1 },
      payout_delay: { type: 'boolean' },
      min_payout: { type: 'number', minimum: 0 },
      min_delegation: { type: 'number', minimum: 0 },
      non_delegatable: { type: 'boolean' },
      sponsored: { type: 'boolean' },
    },
  }),
  domain: schema('domain', 'domain names and optional reverse record', {
    type: 'object',
    required: ['records'],
    properties: {
      name: str,
      records: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['address', 'name', 'owner', 'expiry'],
          properties: { address: tzAddress, name: str, owner: tzAddress, expiry: dateTime, data: { type: 'object' } },
        },
      },
    },
  }),
  location: record('location', 'geographic location and coordinates', {
    lat: { type: 'number', minimum: -90, maximum: 90 },
    lon: { type: 'number', minimum: -180, maximum: 180 },
    alt: { type: 'number' },
    country: { type: 'string', pattern: '^[A-Z]{2}$' },
    city: { type: 'string', pattern: '^[A-Z]{3}$' },
  }),
  media: record('media', 'media URIs and formats', {
    thumbnail_uri: uri,
    artifact_uri: uri,
    format: { type: 'string', pattern: '^[a-z]+/[a-zA-Z0-9.+-]+$' },
    language: str,
  }),
  payout: schema('payout', 'baker payout addresses', {
    type: 'array',
    minItems: 1,
    uniqueItems: true,
    items: { type: 'string', pattern: '^tz[1-4][1-9A-HJ-NP-Za-km-z]{33}$' },
  }),
  rights: record('rights', 'content and license rightsholders', {
    date: dateTime,
    rights: str,
    license: str,
    minter: tzAddress,
    authors: strList,
    creators: strList,
    contributors: strList,
    publishers: strList,
  }),
  social: record('social', 'social media handles', {
    twitter: str,
    instagram: str,
    reddit: str,
    github: str,
    website: { type: 'string', format: 'uri-reference' },
  }),
  updated: record('updated', 'record update information', {
    hash: { type: 'string', pattern: '^B[1-9A-HJ-NP-Za-km-z]{50}$' },
    height: { type: 'integer', minimum: 0 },
    time: dateTime,
  }),
  tz16: record('tz16', 'TZIP-16 contract metadata', {
    name: str,
    description: str,
    version: str,
    license: { type: 'object', required: ['name'], properties: { name: str, details: str } },
    authors: strList,
    homepage: str,
    source: { type: 'object', properties: { tools: strList, location: str } },
    interfaces: strList,
    errors: { type: 'array' },
    views: { type: 'array' },
  }),
  tz21: record('tz21', 'TZIP-21 token metadata', {
    name: str,
    symbol: str,
    decimals: { type: 'integer', minimum: 0 },
    description: str,
    minter: tzAddress,
    creators: strList,
    contributors: strList,
    publishers: strList,
    date: dateTime,
    blockLevel: { type: 'integer' },
    type: str,
    tags: strList,
    genres: strList,
    language: str,
    identifier: str,
    rights: str,
    rightUri: str,
    artifactUri: str,
    displayUri: str,
    thumbnailUri: str,
    externalUri: str,
    isTransferable: { type: 'boolean' },
    isBooleanAmount: { type: 'boolean' },
    shouldPreferSymbol: { type: 'boolean' },
    formats: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          uri: str,
          hash: str,
          mimeType: str,
          fileSize: { type: 'integer', minimum: 0 },
          fileName: str,
          duration: str,
          dimensions: { type: 'object', properties: { value: str, unit: str } },
          dataRate: { type: 'object', properties: { value: str, unit: str } },
        },
      },
    },
    attributes: {
      type: 'array',
      items: { type: 'object', required: ['name', 'value'], properties: { name: str, value: str, type: str } },
    },
    assets: { type: 'array', items: { type: 'object' } },
  }),
};
