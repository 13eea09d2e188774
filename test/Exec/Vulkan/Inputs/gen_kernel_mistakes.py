"""Writes the programs of kernel_mistakes.test to stdout: one correct program
(out = 2 * in, one SPIR-V kernel, a dynamic length) and one chunk per
mistake a kernel author makes (docs/device.md, "Writing kernels"), each the
correct program with one change. Chunks are split by `// -----`; each
function is named after its case."""
BASE = r'''// CASE: {name}
// {comment}
module attributes {{hal.device.targets = [#hal.device.target<"vulkan", {{buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 134217728, min_buffer_range_alignment = 16>}}>]}} {{
hal.executable private @ex {{
  hal.interface @io attributes {{push_constants = {pc_count} : index}} {{
    hal.interface.binding @in, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=1, type="StorageBuffer", access="Write|Discard"{extra_binding}
  }}
{model_variant}  hal.executable.variant @vulkan, target = #hal.executable.target<"vulkan", "vulkan-spirv-fb"> {{
    hal.executable.entry_point @double attributes {{interface = @io, ordinal = 0 : index}} {{
    ^bb0(%n: index):
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %x = arith.{count_op} %n, %c4 : index
      hal.return %x, %c1, %c1 : index, index, index
    }}
    builtin.module {{
      spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {{
        spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @out bind({out_set}, {out_binding}) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @constants : !spirv.ptr<!spirv.struct<{pc_type}>, PushConstant>
        spirv.GlobalVariable @globalId built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
        // out[i] = 2 * in[i] for i < count
        spirv.func @double() "None" {{
          %zero = spirv.Constant 0 : i32
          %idPtr = spirv.mlir.addressof @globalId : !spirv.ptr<vector<3xi32>, Input>
          %id = spirv.Load "Input" %idPtr : vector<3xi32>
          %index = spirv.CompositeExtract %id[0 : i32] : vector<3xi32>
          %constants = spirv.mlir.addressof @constants : !spirv.ptr<!spirv.struct<{pc_type}>, PushConstant>
          %countPtr = spirv.AccessChain %constants[%zero] : !spirv.ptr<!spirv.struct<{pc_type}>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %count = spirv.Load "PushConstant" %countPtr : i32
          %inside = spirv.ULessThan %index, %count : i32
          spirv.mlir.selection {{
            spirv.BranchConditional %inside, ^store, ^done
          ^store:
            %in = spirv.mlir.addressof @in : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
            %inPtr = spirv.AccessChain %in[%zero, %index] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
            %value = spirv.Load "StorageBuffer" %inPtr : i32
            %twice = spirv.IAdd %value, %value : i32
            %out = spirv.mlir.addressof @{store_into} : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
            %outPtr = spirv.AccessChain %out[%zero, %index] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
            spirv.Store "StorageBuffer" %outPtr, %twice : i32
            spirv.Branch ^done
          ^done:
            spirv.mlir.merge
          }}
          spirv.Return
        }}
        spirv.EntryPoint "GLCompute" @double, @globalId
        spirv.ExecutionMode @double "LocalSize", {local_size}, 1, 1
      }}
    }}
  }}
}}
func.func @{name}(%input: !hal.buffer_view) -> !hal.buffer_view {{
  %n = hal.buffer_view.dim<%input : !hal.buffer_view>[0] : index
  %x = hal.tensor.cast %input : !hal.buffer_view -> tensor<?xi32>{{%n}}
  %y = flow.ex.stream.fragment(%x, %n) : (tensor<?xi32>{{%n}}, index) -> tensor<?xi32>{{%n}} =
      (%in: tensor<?xi32>, %count: index) -> tensor<?xi32> {{
    %out = flow.dispatch @ex::@double[%count](%in, %count) {{hal.bindings = [
        #hal.ex.operand_buffer<"in", 0 : index>,
        #hal.ex.result_buffer<"out", 0 : index>,
        #hal.ex.push_constant<0 : index, 1 : index>]}}
        : (tensor<?xi32>{{%count}}, index) -> tensor<?xi32>{{%count}}
    flow.return %out : tensor<?xi32>
  }}
  %result = hal.tensor.cast %y : tensor<?xi32>{{%n}} -> !hal.buffer_view
  return %result : !hal.buffer_view
}}
}}
'''
MODEL = '''  hal.executable.variant @vmvx, target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb"> {
    hal.executable.entry_point @double attributes {interface = @io, ordinal = 0 : index}
    builtin.module {}
  }
'''
defaults = dict(pc_count=1, extra_binding='', model_variant='', count_op='ceildivui',
                out_set=0, out_binding=1, pc_type='(i32 [0])', store_into='out',
                local_size=4)
cases = [
  ('correct', 'The program without a mistake: out = 2 * in.', {}),
  ('wrong_binding', 'The kernel binds its output at binding 4; the interface says 1.', dict(out_binding=4)),
  ('wrong_set', 'The kernel binds its output in set 1; the interface says set 0.', dict(out_set=1)),
  ('store_into_read', 'The kernel stores into its input, a Read binding.', dict(store_into='in')),
  ('push_constants_beyond', 'The kernel reads a 12-byte push-constant block; the interface declares 1 push constant.', dict(pc_type='(i32 [0], i32 [4], i32 [8])')),
  ('too_few_workgroups', 'The workgroup count rounds down: the last elements get no invocation.', dict(count_op='divui')),
  ('local_size_too_large', 'A local size beyond every device.', dict(local_size=100000)),
  ('unbound_binding', 'The interface declares a binding the dispatch does not bind.', dict(extra_binding='\n    hal.interface.binding @scratch, set=0, binding=2, type="StorageBuffer", access="Read|Write"')),
  ('model_variant_first', 'A kernel-less variant is listed before the kernels.', dict(model_variant=MODEL)),
  # Found by utils/mutate_kernels.py: each crashed lavapipe before the check.
  ('builtin_not_compute', 'A built-in compute kernels do not have.', dict(),
   [('built_in("GlobalInvocationId")', 'built_in("FragCoord")')]),
  ('input_without_builtin', 'An Input variable that is no built-in.', dict(),
   [(' built_in("GlobalInvocationId")', '')]),
  ('workgroup_bound', 'Storage buffers turned into Workgroup variables, still bound.', dict(),
   [(', StorageBuffer>', ', Workgroup>'), ('"StorageBuffer" %', '"Workgroup" %')]),
  ('second_local_size', 'Two LocalSize modes.', dict(),
   [('"LocalSize", 4, 1, 1', '"LocalSize", 4, 1, 1\n        spirv.ExecutionMode @double "LocalSize", 8, 1, 1')]),
  ('push_constant_misaligned', 'A push constant at byte 2.', dict(pc_type='(i32 [2])')),
  ('store_through_call', 'The kernel stores into its Read input through a function.', dict(),
   [('spirv.Store "StorageBuffer" %outPtr, %twice : i32',
     'spirv.FunctionCall @put(%inPtr, %twice) : (!spirv.ptr<i32, StorageBuffer>, i32) -> ()'),
    ('        spirv.func @double() "None" {',
     '        spirv.func @put(%p: !spirv.ptr<i32, StorageBuffer>, %v: i32) "None" {\n'
     '          spirv.Store "StorageBuffer" %p, %v : i32\n'
     '          spirv.Return\n'
     '        }\n'
     '        spirv.func @double() "None" {')]),
  ('may_alias_not_aliased', 'A MayAlias binding whose variable is not decorated Aliased.', dict(),
   [('access="Read"\n', 'access="Read|MayAlias"\n')]),
  ('may_alias_aliased', 'The same, decorated Aliased: runs.', dict(),
   [('access="Read"\n', 'access="Read|MayAlias"\n'),
    ('@in bind(0, 0) :', '@in bind(0, 0) {aliased} :')]),
]
chunks = []
for name, comment, overrides, *edits in cases:
    args = dict(defaults); args.update(overrides)
    chunk = BASE.format(name=name, comment=comment, **args)
    for old, new in (edits[0] if edits else []):
        assert old in chunk, (name, old)
        chunk = chunk.replace(old, new)
    chunks.append(chunk)
print('// Generated by gen_kernel_mistakes.py.\n')
print('\n// -----\n\n'.join(chunks), end='')
