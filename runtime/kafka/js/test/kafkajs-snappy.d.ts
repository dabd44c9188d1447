// kafkajs-snappy ships no types: its default export makes kafkajs's Snappy codec.
declare module "kafkajs-snappy" {
  const SnappyCodec: () => unknown;
  export default SnappyCodec;
}
