// The SPIR-V kernel programs of kernels.test, one per chunk.

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 2 : index} {
    hal.interface.binding @out, set=0, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vulkan, target = #hal.executable.target<"vulkan", "vulkan-spirv-fb"> {
    hal.executable.entry_point @iota attributes {interface = @io, ordinal = 0 : index}
    builtin.module {
      spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {
        spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
        spirv.GlobalVariable @globalId built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
        // out[i] = first + i for i < count
        spirv.func @iota() "None" {
          %zero = spirv.Constant 0 : i32
          %one = spirv.Constant 1 : i32
          %idPtr = spirv.mlir.addressof @globalId : !spirv.ptr<vector<3xi32>, Input>
          %id = spirv.Load "Input" %idPtr : vector<3xi32>
          %index = spirv.CompositeExtract %id[0 : i32] : vector<3xi32>
          %constants = spirv.mlir.addressof @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
          %firstPtr = spirv.AccessChain %constants[%zero] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %countPtr = spirv.AccessChain %constants[%one] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %first = spirv.Load "PushConstant" %firstPtr : i32
          %count = spirv.Load "PushConstant" %countPtr : i32
          %inside = spirv.ULessThan %index, %count : i32
          spirv.mlir.selection {
            spirv.BranchConditional %inside, ^store, ^done
          ^store:
            %value = spirv.IAdd %first, %index : i32
            %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
            %ptr = spirv.AccessChain %out[%zero, %index] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
            spirv.Store "StorageBuffer" %ptr, %value : i32
            spirv.Branch ^done
          ^done:
            spirv.mlir.merge
          }
          spirv.Return
        }
        spirv.EntryPoint "GLCompute" @iota, @globalId
        spirv.ExecutionMode @iota "LocalSize", 4, 1, 1
      }
    }
  }
}
func.func @iota() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c40 = arith.constant 40 : index
  %first = arith.constant 100 : i32
  %count = arith.constant 10 : i32
  %device = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
  %result = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c40}
  %layout = hal.executable_layout.lookup device(%device : !hal.device) push_constants(2) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%device : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%result : !hal.buffer)[%c0, %c40]])
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(0) values([%first, %count]) : i32, i32
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vulkan::@iota) workgroups([%c3, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %device, %cmd
  return %result : !hal.buffer
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 2 : index} {
    hal.interface.binding @out, set=0, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vulkan, target = #hal.executable.target<"vulkan", "vulkan-spirv-fb"> {
    hal.executable.entry_point @iota attributes {interface = @io, ordinal = 0 : index}
    builtin.module {
      spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {
        spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
        spirv.GlobalVariable @globalId built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
        // out[i] = first + i for i < count
        spirv.func @other() "None" {
          %zero = spirv.Constant 0 : i32
          %one = spirv.Constant 1 : i32
          %idPtr = spirv.mlir.addressof @globalId : !spirv.ptr<vector<3xi32>, Input>
          %id = spirv.Load "Input" %idPtr : vector<3xi32>
          %index = spirv.CompositeExtract %id[0 : i32] : vector<3xi32>
          %constants = spirv.mlir.addressof @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
          %firstPtr = spirv.AccessChain %constants[%zero] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %countPtr = spirv.AccessChain %constants[%one] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %first = spirv.Load "PushConstant" %firstPtr : i32
          %count = spirv.Load "PushConstant" %countPtr : i32
          %inside = spirv.ULessThan %index, %count : i32
          spirv.mlir.selection {
            spirv.BranchConditional %inside, ^store, ^done
          ^store:
            %value = spirv.IAdd %first, %index : i32
            %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
            %ptr = spirv.AccessChain %out[%zero, %index] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
            spirv.Store "StorageBuffer" %ptr, %value : i32
            spirv.Branch ^done
          ^done:
            spirv.mlir.merge
          }
          spirv.Return
        }
        spirv.EntryPoint "GLCompute" @other, @globalId
        spirv.ExecutionMode @other "LocalSize", 4, 1, 1
      }
    }
  }
}
func.func @no_entry_point() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c40 = arith.constant 40 : index
  %first = arith.constant 100 : i32
  %count = arith.constant 10 : i32
  %device = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
  %result = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c40}
  %layout = hal.executable_layout.lookup device(%device : !hal.device) push_constants(2) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%device : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%result : !hal.buffer)[%c0, %c40]])
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(0) values([%first, %count]) : i32, i32
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vulkan::@iota) workgroups([%c3, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %device, %cmd
  return %result : !hal.buffer
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 2 : index} {
    hal.interface.binding @out, set=1, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vulkan, target = #hal.executable.target<"vulkan", "vulkan-spirv-fb"> {
    hal.executable.entry_point @iota attributes {interface = @io, ordinal = 0 : index}
    builtin.module {
      spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {
        spirv.GlobalVariable @out bind(1, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
        spirv.GlobalVariable @globalId built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
        // out[i] = first + i for i < count
        spirv.func @iota() "None" {
          %zero = spirv.Constant 0 : i32
          %one = spirv.Constant 1 : i32
          %idPtr = spirv.mlir.addressof @globalId : !spirv.ptr<vector<3xi32>, Input>
          %id = spirv.Load "Input" %idPtr : vector<3xi32>
          %index = spirv.CompositeExtract %id[0 : i32] : vector<3xi32>
          %constants = spirv.mlir.addressof @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
          %firstPtr = spirv.AccessChain %constants[%zero] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %countPtr = spirv.AccessChain %constants[%one] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %first = spirv.Load "PushConstant" %firstPtr : i32
          %count = spirv.Load "PushConstant" %countPtr : i32
          %inside = spirv.ULessThan %index, %count : i32
          spirv.mlir.selection {
            spirv.BranchConditional %inside, ^store, ^done
          ^store:
            %value = spirv.IAdd %first, %index : i32
            %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
            %ptr = spirv.AccessChain %out[%zero, %index] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
            spirv.Store "StorageBuffer" %ptr, %value : i32
            spirv.Branch ^done
          ^done:
            spirv.mlir.merge
          }
          spirv.Return
        }
        spirv.EntryPoint "GLCompute" @iota, @globalId
        spirv.ExecutionMode @iota "LocalSize", 4, 1, 1
      }
    }
  }
}
func.func @set_one() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c40 = arith.constant 40 : index
  %first = arith.constant 100 : i32
  %count = arith.constant 10 : i32
  %device = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
  %result = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c40}
  %layout = hal.executable_layout.lookup device(%device : !hal.device) push_constants(2) layouts([[], [#hal.descriptor_set_layout_binding<0, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%device : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c1] bindings([%c0 = (%result : !hal.buffer)[%c0, %c40]])
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(0) values([%first, %count]) : i32, i32
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vulkan::@iota) workgroups([%c3, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %device, %cmd
  return %result : !hal.buffer
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 2 : index} {
    hal.interface.binding @out, set=0, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vulkan, target = #hal.executable.target<"vulkan", "vulkan-spirv-fb"> {
    hal.executable.entry_point @iota attributes {interface = @io, ordinal = 0 : index}
    builtin.module {
      spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {
        spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
        spirv.GlobalVariable @globalId built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
        // out[i] = first + i for i < count
        spirv.func @iota() "None" {
          %zero = spirv.Constant 0 : i32
          %one = spirv.Constant 1 : i32
          %idPtr = spirv.mlir.addressof @globalId : !spirv.ptr<vector<3xi32>, Input>
          %id = spirv.Load "Input" %idPtr : vector<3xi32>
          %index = spirv.CompositeExtract %id[0 : i32] : vector<3xi32>
          %constants = spirv.mlir.addressof @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
          %firstPtr = spirv.AccessChain %constants[%zero] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %countPtr = spirv.AccessChain %constants[%one] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %first = spirv.Load "PushConstant" %firstPtr : i32
          %count = spirv.Load "PushConstant" %countPtr : i32
          %inside = spirv.ULessThan %index, %count : i32
          spirv.mlir.selection {
            spirv.BranchConditional %inside, ^store, ^done
          ^store:
            %value = spirv.IAdd %first, %index : i32
            %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
            %ptr = spirv.AccessChain %out[%zero, %index] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
            spirv.Store "StorageBuffer" %ptr, %value : i32
            spirv.Branch ^done
          ^done:
            spirv.mlir.merge
          }
          spirv.Return
        }
        spirv.EntryPoint "GLCompute" @iota, @globalId
        spirv.ExecutionMode @iota "LocalSize", 4, 1, 1
      }
    }
  }
}
func.func @too_many_workgroups() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c70000 = arith.constant 70000 : index
  %c40 = arith.constant 40 : index
  %first = arith.constant 100 : i32
  %count = arith.constant 10 : i32
  %device = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
  %result = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c40}
  %layout = hal.executable_layout.lookup device(%device : !hal.device) push_constants(2) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%device : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%result : !hal.buffer)[%c0, %c40]])
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(0) values([%first, %count]) : i32, i32
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vulkan::@iota) workgroups([%c70000, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %device, %cmd
  return %result : !hal.buffer
}

// -----

hal.executable private @ex {
  hal.interface @io attributes {push_constants = 2 : index} {
    hal.interface.binding @out, set=0, binding=0, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vulkan, target = #hal.executable.target<"vulkan", "vulkan-spirv-fb"> {
    hal.executable.entry_point @iota attributes {interface = @io, ordinal = 0 : index}
    builtin.module {
      spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {
        spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
        spirv.GlobalVariable @globalId built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
        // out[i] = first + i for i < count
        spirv.func @iota() "None" {
          %zero = spirv.Constant 0 : i32
          %one = spirv.Constant 1 : i32
          %idPtr = spirv.mlir.addressof @globalId : !spirv.ptr<vector<3xi32>, Input>
          %id = spirv.Load "Input" %idPtr : vector<3xi32>
          %index = spirv.CompositeExtract %id[0 : i32] : vector<3xi32>
          %constants = spirv.mlir.addressof @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
          %firstPtr = spirv.AccessChain %constants[%zero] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %countPtr = spirv.AccessChain %constants[%one] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
          %first = spirv.Load "PushConstant" %firstPtr : i32
          %count = spirv.Load "PushConstant" %countPtr : i32
          %inside = spirv.ULessThan %index, %count : i32
          spirv.mlir.selection {
            spirv.BranchConditional %inside, ^store, ^done
          ^store:
            %value = spirv.IAdd %first, %index : i32
            %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
            %ptr = spirv.AccessChain %out[%zero, %index] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
            spirv.Store "StorageBuffer" %ptr, %value : i32
            spirv.Branch ^done
          ^done:
            spirv.mlir.merge
          }
          spirv.Return
        }
        spirv.EntryPoint "GLCompute" @iota, @globalId
        spirv.ExecutionMode @iota "LocalSize", 4, 1, 1
      }
    }
  }
}
func.func @empty_binding() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c40 = arith.constant 40 : index
  %first = arith.constant 100 : i32
  %count = arith.constant 10 : i32
  %device = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
  %result = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c40}
  %layout = hal.executable_layout.lookup device(%device : !hal.device) push_constants(2) layouts([[#hal.descriptor_set_layout_binding<0, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%device : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c0 = (%result : !hal.buffer)[%c0, %c0]])
  hal.command_buffer.push_constants<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout) offset(0) values([%first, %count]) : i32, i32
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vulkan::@iota) workgroups([%c3, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %device, %cmd
  return %result : !hal.buffer
}

// -----

// A hand-written layout naming fewer bindings than the interface: the
// kernel reads binding 0, which the dispatch leaves unbound.
hal.executable private @ex {
  hal.interface @io attributes {push_constants = 0 : index} {
    hal.interface.binding @in, set=0, binding=0, type="StorageBuffer", access="Read"
    hal.interface.binding @out, set=0, binding=1, type="StorageBuffer", access="Write|Discard"
  }
  hal.executable.variant @vulkan, target = #hal.executable.target<"vulkan", "vulkan-spirv-fb"> {
    hal.executable.entry_point @copy attributes {interface = @io, ordinal = 0 : index}
    builtin.module {
      spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {
        spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        spirv.GlobalVariable @globalId built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
        spirv.func @copy() "None" {
          %zero = spirv.Constant 0 : i32
          %idPtr = spirv.mlir.addressof @globalId : !spirv.ptr<vector<3xi32>, Input>
          %id = spirv.Load "Input" %idPtr : vector<3xi32>
          %index = spirv.CompositeExtract %id[0 : i32] : vector<3xi32>
          %in = spirv.mlir.addressof @in : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
          %inPtr = spirv.AccessChain %in[%zero, %index] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
          %value = spirv.Load "StorageBuffer" %inPtr : i32
          %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
          %outPtr = spirv.AccessChain %out[%zero, %index] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
          spirv.Store "StorageBuffer" %outPtr, %value : i32
          spirv.Return
        }
        spirv.EntryPoint "GLCompute" @copy, @globalId
        spirv.ExecutionMode @copy "LocalSize", 4, 1, 1
      }
    }
  }
}
func.func @layout_leaves_kernel_binding() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %device = hal.ex.shared_device : !hal.device
  %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
  %result = hal.allocator.allocate<%allocator : !hal.allocator> type(DeviceLocal|HostVisible) usage(All) : !hal.buffer{%c16}
  %layout = hal.executable_layout.lookup device(%device : !hal.device) push_constants(0) layouts([[#hal.descriptor_set_layout_binding<1, "StorageBuffer", DW>]]) : !hal.executable_layout
  %cmd = hal.command_buffer.create device(%device : !hal.device) mode(OneShot|AllowInlineExecution) categories(Transfer|Dispatch) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.push_descriptor_set<%cmd : !hal.command_buffer> layout(%layout : !hal.executable_layout)[%c0] bindings([%c1 = (%result : !hal.buffer)[%c0, %c16]])
  hal.command_buffer.dispatch.symbol<%cmd : !hal.command_buffer> target(@ex::@vulkan::@copy) workgroups([%c1, %c1, %c1])
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %device, %cmd
  return %result : !hal.buffer
}
