// SPDX-License-Identifier: Apache-2.0
// The project's gas-bounded multicall. Its runtime code is injected with an
// eth_call state override at Multicall3's address, and it answers
// Multicall3's `aggregate3` the same way, every call allowed to fail, with
// two bounds. Each call is given a fair share of the gas left (what is left
// above a reserve, divided by the calls still to make), never all of it:
// a call that burns its allowance — older compilers end `throw`, `assert`
// and unmatched calls in INVALID, which consumes every unit the call was
// given — is one failed call, and the calls after it still get at least
// the share they had at the start. And an answer over 32 KiB counts as a
// failed call, so no answer can make the batch pay for its memory. It only
// reads; nothing is sent.
pragma solidity ^0.8.20;

contract BoundedMulticall {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    /// Gas kept back for the loop and for encoding the answer.
    uint256 private constant RESERVE = 200_000;
    /// The largest answer kept.
    uint256 private constant MAX_ANSWER = 32_768;

    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory results) {
        uint256 count = calls.length;
        results = new Result[](count);
        for (uint256 i = 0; i < count; i++) {
            uint256 left = gasleft();
            uint256 allowance = left > RESERVE ? (left - RESERVE) / (count - i) : 0;
            address target = calls[i].target;
            bytes memory data = calls[i].callData;
            bool success;
            bytes memory answer;
            assembly ("memory-safe") {
                success := call(allowance, target, 0, add(data, 0x20), mload(data), 0, 0)
                let size := returndatasize()
                if gt(size, MAX_ANSWER) {
                    success := 0
                    size := 0
                }
                answer := mload(0x40)
                mstore(answer, size)
                returndatacopy(add(answer, 0x20), 0, size)
                mstore(0x40, add(add(answer, 0x20), and(add(size, 31), not(31))))
            }
            results[i] = Result(success, answer);
        }
    }
}
