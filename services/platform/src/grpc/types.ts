/** The request and response message types of a generated method definition. */
export type RequestOf<M> = M extends { requestDeserialize: (bytes: Buffer) => infer Req } ? Req : never;
export type ResponseOf<M> = M extends { responseDeserialize: (bytes: Buffer) => infer Res } ? Res : never;
