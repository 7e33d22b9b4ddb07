import { describe, expect, it } from 'vitest';
import { closeFrame, completionFrame, invocationFrame, ProtocolError, parseHandshake, parseMessage, splitRecords } from './hub-protocol.js';

const RS = '\x1e';

describe('hub protocol', () => {
  it('splits a frame into whole records and refuses an unterminated one', () => {
    expect(splitRecords(`{"type":6}${RS}{"type":6}${RS}`)).toEqual(['{"type":6}', '{"type":6}']);
    expect(() => splitRecords('{"type":6}')).toThrow(ProtocolError);
    expect(() => splitRecords(`{"type":6}${RS}{"ty`)).toThrow(ProtocolError);
  });

  it('parses invocations, pings, closes and tolerates the types it does not use', () => {
    expect(parseMessage('{"type":1,"invocationId":"0","target":"SubscribeDevice","arguments":[5]}')).toEqual({
      type: 1,
      invocationId: '0',
      target: 'SubscribeDevice',
      arguments: [5],
    });
    expect(parseMessage('{"type":1,"target":"x","arguments":[]}')).toEqual({ type: 1, target: 'x', arguments: [] });
    expect(parseMessage('{"type":6}')).toEqual({ type: 6 });
    expect(parseMessage('{"type":7,"error":"bye"}')).toEqual({ type: 7, error: 'bye' });
    expect(parseMessage('{"type":8,"sequenceId":1}')).toEqual({ type: 'ignored' });
  });

  it.each([
    'not json',
    '[1]',
    'null',
    '{"type":99}',
    '{}',
    '{"type":1,"target":5,"arguments":[]}',
    '{"type":4,"target":"x","arguments":[]}',
  ])('rejects %s', (record) => {
    expect(() => parseMessage(record)).toThrow(ProtocolError);
  });

  it('reads the handshake and writes frames ending with the separator', () => {
    expect(parseHandshake('{"protocol":"json","version":1}')).toEqual({ protocol: 'json', version: 1 });
    expect(() => parseHandshake('{"protocol":"json"}')).toThrow(ProtocolError);
    expect(invocationFrame('liveMeasurement', [{ a: 1 }])).toBe(`{"type":1,"target":"liveMeasurement","arguments":[{"a":1}]}${RS}`);
    expect(completionFrame('3', { result: true })).toBe(`{"type":3,"invocationId":"3","result":true}${RS}`);
    expect(completionFrame('3', { result: undefined })).toBe(`{"type":3,"invocationId":"3"}${RS}`);
    expect(completionFrame('3', { error: 'no' })).toBe(`{"type":3,"invocationId":"3","error":"no"}${RS}`);
    expect(closeFrame('x', true)).toBe(`{"type":7,"error":"x","allowReconnect":true}${RS}`);
    expect(closeFrame()).toBe(`{"type":7}${RS}`);
  });
});
