/**
 * Dead letters (docs/kafka.md "Dead letters in Go, Python and JavaScript"): a record the consumer
 * refused goes to its dead-letter topic as Spring Kafka's DeadLetterPublishingRecoverer and the
 * Java module's FbeDeadLetters send it: its key, value and headers as read, to `TOPIC.DLT`, the same
 * partition, with Spring's headers naming where it came from and why.
 *
 * ```ts
 * await consumer.run({ eachMessage: serde.eachMessage(async ({ value }) => handle(value),
 *     async (refused) => { await publishDeadLetter(producer, refused); }) });  // to accounts.DLT, and go on
 * ```
 */

import type { EachMessagePayload, Message, Producer, RecordMetadata } from "kafkajs";

export const DEAD_LETTER_SUFFIX = ".DLT";
export const ORIGINAL_TOPIC = "kafka_dlt-original-topic";
/** A 4-byte big-endian integer. */
export const ORIGINAL_PARTITION = "kafka_dlt-original-partition";
/** An 8-byte big-endian integer. */
export const ORIGINAL_OFFSET = "kafka_dlt-original-offset";
export const EXCEPTION_FQCN = "kafka_dlt-exception-fqcn";
export const EXCEPTION_MESSAGE = "kafka_dlt-exception-message";

/** The dead-letter topic of a topic: `accounts.DLT`. */
export function deadLetterTopic(topic: string): string {
  return topic + DEAD_LETTER_SUFFIX;
}

/** What a dead letter is made of: where the record was read, the record, and why it was refused. */
export type RefusedRecord = Pick<EachMessagePayload, "topic" | "partition" | "message"> & { error: Error };

/**
 * The kafkajs message that carries a refused record to its dead-letter topic: its key, value and
 * headers, the same partition, and the five headers (the error's name and message: FbeRecordError
 * and its text for a record the serde refused).
 */
export function deadLetter({ topic, partition, message, error }: RefusedRecord): Message {
  const place = Buffer.alloc(12);
  place.writeInt32BE(partition, 0);
  place.writeBigInt64BE(BigInt(message.offset), 4);
  return {
    key: message.key,
    value: message.value,
    partition,
    headers: {
      ...message.headers,
      [ORIGINAL_TOPIC]: topic,
      [ORIGINAL_PARTITION]: place.subarray(0, 4),
      [ORIGINAL_OFFSET]: place.subarray(4),
      [EXCEPTION_FQCN]: error.name,
      [EXCEPTION_MESSAGE]: error.message,
    },
  };
}

/**
 * Sends `deadLetter(refused)` to the dead-letter topic (acks from every in-sync replica) and waits
 * for the broker. The dead-letter topic is created like any other (this does not create it).
 */
export async function publishDeadLetter(producer: Producer, refused: RefusedRecord): Promise<RecordMetadata[]> {
  return producer.send({ topic: deadLetterTopic(refused.topic), acks: -1, messages: [deadLetter(refused)] });
}
