package dev.protomolt.engine.deadletters;

import dev.protomolt.proto.events.v1.DlqMessage;

/** One dead letter as it sits on its DLQ topic: where it is and what it says. */
public record DeadLetter(String topic, int partition, long offset, DlqMessage message) {

  /** The stream the dead letter came from; it names the document when no body travelled. */
  public String streamId() {
    return message.getStream().getStreamId();
  }

  /**
   * The document the dead letter is about, whether it travelled inline or by reference; empty when
   * the failing state carried no body and none was saved (then {@link #streamId} identifies it).
   */
  public String docId() {
    if (message.getStream().hasDocument()) {
      return message.getStream().getDocument().getDocId();
    }
    if (message.getStream().hasDocumentRef()) {
      return message.getStream().getDocumentRef().getDocId();
    }
    return message.getSavedBodyRef().getDocId();
  }

  /** The account the dead letter's document belongs to. */
  public String accountId() {
    return message.getStream().getMetadata().getAccountId();
  }
}
