/** Why an operation gets no request: the document asks for what no generated request can hold. */
export class NotSendable extends Error {}
