//===- VulkanSetup.cpp - Vulkan device: instance, device, pipeline --------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Opens a Vulkan instance (with VK_LAYER_KHRONOS_validation and
// synchronization validation under --validate), picks a physical device,
// creates the logical device, its queue and the pipeline of the built-in
// model kernel (ModelKernel.comp, compiled at build time and embedded).
//
//===----------------------------------------------------------------------===//

#include "VulkanDevice.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <cstdlib>
#include <cstring>

// The SPIR-V of ModelKernel.comp: `const uint32_t kModelKernelSpirv[]`.
#include "ModelKernel.spv.h"

using namespace mlir;
using namespace streamhal::exec;

static constexpr const char *kValidationLayer = "VK_LAYER_KHRONOS_validation";
/// The label prefix that names a command of the current submission.
static constexpr llvm::StringLiteral kLabelPrefix = "streamhal #";

/// Collects validation messages; attributes them to a command through the
/// command-buffer labels active when the layer reported.
static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
  auto *device = static_cast<VulkanDevice *>(user);
  VulkanDevice::Message message;
  message.command = device->recordingCommand;
  message.submission = device->submittingIndex;
  if (data->pMessageIdName)
    message.text = std::string("[") + data->pMessageIdName + "] ";
  message.text += data->pMessage ? data->pMessage : "";
  for (uint32_t i = 0; i < data->cmdBufLabelCount; ++i) {
    llvm::StringRef name = data->pCmdBufLabels[i].pLabelName
                               ? data->pCmdBufLabels[i].pLabelName
                               : "";
    unsigned index;
    if (name.consume_front(kLabelPrefix) &&
        !name.split(' ').first.getAsInteger(10, index))
      message.command = static_cast<int>(index);
  }
  device->addMessage(std::move(message));
  return VK_FALSE;
}

static VkDebugUtilsMessengerCreateInfoEXT getMessengerInfo(void *user) {
  VkDebugUtilsMessengerCreateInfoEXT info{};
  info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
  info.pfnUserCallback = onMessage;
  info.pUserData = user;
  return info;
}

bool VulkanDevice::createInstance(llvm::raw_ostream &errors) {
  std::vector<const char *> layers, extensions;
  if (validate) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> available(count);
    vkEnumerateInstanceLayerProperties(&count, available.data());
    if (llvm::none_of(available, [](const VkLayerProperties &layer) {
          return std::strcmp(layer.layerName, kValidationLayer) == 0;
        })) {
      errors << "--validate needs " << kValidationLayer
             << ", which the Vulkan loader does not find (Debian: "
                "vulkan-validationlayers)\n";
      return false;
    }
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    // Synchronization validation across submissions has no flag of
    // VkValidationFeaturesEXT in the layers of Debian 12; the layer reads
    // it from this variable when the instance is created.
    std::string enables = "VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_"
                          "VALIDATION_QUEUE_SUBMIT";
    if (const char *existing = std::getenv("VK_LAYER_ENABLES"))
      if (!llvm::StringRef(existing).contains(enables))
        enables = std::string(existing) + ":" + enables;
    setenv("VK_LAYER_ENABLES", enables.c_str(), /*overwrite=*/1);
  }
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "hal-exec";
  app.apiVersion = VK_API_VERSION_1_2;
  VkValidationFeatureEnableEXT enabled[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{};
  features.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT;
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enabled;
  VkDebugUtilsMessengerCreateInfoEXT messengerInfo = getMessengerInfo(this);
  features.pNext = &messengerInfo;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = layers.size();
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = extensions.size();
  info.ppEnabledExtensionNames = extensions.data();
  if (validate)
    info.pNext = &features;
  if (VkResult result = vkCreateInstance(&info, nullptr, &instance)) {
    errors << "cannot create a Vulkan instance (VkResult " << result
           << "): is a Vulkan driver installed (Debian: mesa-vulkan-drivers "
              "for lavapipe)?\n";
    instance = VK_NULL_HANDLE;
    return false;
  }
  if (validate) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    if (!create || create(instance, &messengerInfo, nullptr, &messenger)) {
      errors << "cannot create the validation messenger\n";
      return false;
    }
    beginLabel = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(instance, "vkCmdBeginDebugUtilsLabelEXT"));
    endLabel = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(instance, "vkCmdEndDebugUtilsLabelEXT"));
    setObjectName = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
        vkGetInstanceProcAddr(instance, "vkSetDebugUtilsObjectNameEXT"));
  }
  return true;
}

static std::vector<VkPhysicalDevice> getPhysicalDevices(VkInstance instance) {
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance, &count, devices.data());
  devices.resize(count);
  return devices;
}

static const char *getTypeName(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return "discrete GPU";
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return "integrated GPU";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return "virtual GPU";
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return "CPU";
  default:
    return "other";
  }
}

/// Whether `physical` has a queue family with compute; sets `family`.
static bool findComputeQueue(VkPhysicalDevice physical, uint32_t &family) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  for (uint32_t i = 0; i < count; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      family = i;
      return true;
    }
  return false;
}

std::string VulkanDevice::getMissingFeatures(VkPhysicalDevice candidate) {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(candidate, &props);
  SmallVector<std::string> missing;
  if (props.apiVersion < VK_API_VERSION_1_2)
    missing.push_back("Vulkan 1.2");
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(candidate, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(candidate, nullptr, &count,
                                       extensions.data());
  if (llvm::none_of(extensions, [](const VkExtensionProperties &extension) {
        return std::strcmp(extension.extensionName,
                           VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) == 0;
      }))
    missing.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  VkPhysicalDeviceTimelineSemaphoreFeatures timeline{};
  timeline.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES;
  VkPhysicalDevice8BitStorageFeatures storage8{};
  storage8.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES;
  storage8.pNext = &timeline;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = &storage8;
  if (props.apiVersion >= VK_API_VERSION_1_1)
    vkGetPhysicalDeviceFeatures2(candidate, &features);
  if (!features.features.shaderInt64)
    missing.push_back("shaderInt64");
  if (!storage8.storageBuffer8BitAccess)
    missing.push_back("storageBuffer8BitAccess");
  if (!timeline.timelineSemaphore)
    missing.push_back("timelineSemaphore");
  uint32_t family;
  if (!findComputeQueue(candidate, family))
    missing.push_back("a compute queue");
  if (props.limits.maxPushConstantsSize < kPushConstantBytes)
    missing.push_back("128 bytes of push constants");
  if (props.limits.maxComputeWorkGroupInvocations < kModelInvocations ||
      props.limits.maxComputeWorkGroupSize[0] < kModelInvocations)
    missing.push_back("workgroups of 256 invocations");
  return llvm::join(missing, ", ");
}

void VulkanDevice::listPhysicalDevices(llvm::raw_ostream &os) {
  for (auto [index, candidate] :
       llvm::enumerate(getPhysicalDevices(instance))) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(candidate, &props);
    std::string missing = getMissingFeatures(candidate);
    os << index << ": " << props.deviceName << " ("
       << getTypeName(props.deviceType) << ", Vulkan "
       << VK_API_VERSION_MAJOR(props.apiVersion) << "."
       << VK_API_VERSION_MINOR(props.apiVersion) << "."
       << VK_API_VERSION_PATCH(props.apiVersion) << ", "
       << "minStorageBufferOffsetAlignment "
       << props.limits.minStorageBufferOffsetAlignment
       << ", maxStorageBufferRange " << props.limits.maxStorageBufferRange
       << ")" << (missing.empty() ? "" : ": unusable, lacks " + missing)
       << "\n";
  }
}

bool VulkanDevice::selectPhysicalDevice(StringRef selector,
                                        llvm::raw_ostream &errors) {
  std::vector<VkPhysicalDevice> devices = getPhysicalDevices(instance);
  if (devices.empty()) {
    errors << "the Vulkan loader finds no physical device\n";
    return false;
  }
  auto nameOf = [](VkPhysicalDevice candidate) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(candidate, &props);
    return std::string(props.deviceName);
  };
  unsigned index;
  if (selector.empty()) {
    // A GPU where there is one: lavapipe is a CPU device.
    physical = devices.front();
    for (VkPhysicalDevice candidate : devices) {
      VkPhysicalDeviceProperties props;
      vkGetPhysicalDeviceProperties(candidate, &props);
      if (props.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
          props.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU) {
        physical = candidate;
        break;
      }
    }
  } else if (!selector.getAsInteger(10, index)) {
    if (index >= devices.size()) {
      errors << "--vulkan-device=" << selector << ": there are "
             << devices.size() << " devices (hal-exec --list-devices)\n";
      return false;
    }
    physical = devices[index];
  } else {
    for (VkPhysicalDevice candidate : devices)
      if (StringRef(nameOf(candidate)).contains_insensitive(selector)) {
        physical = candidate;
        break;
      }
    if (!physical) {
      errors << "--vulkan-device=" << selector
             << ": no device's name contains it (hal-exec --list-devices)\n";
      return false;
    }
  }
  std::string missing = getMissingFeatures(physical);
  if (!missing.empty()) {
    errors << "Vulkan device '" << nameOf(physical) << "' lacks " << missing
           << "\n";
    return false;
  }
  vkGetPhysicalDeviceProperties(physical, &properties);
  vkGetPhysicalDeviceMemoryProperties(physical, &memoryProperties);
  VkPhysicalDeviceMaintenance3Properties maintenance3{};
  maintenance3.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
  VkPhysicalDeviceProperties2 props2{};
  props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  props2.pNext = &maintenance3;
  vkGetPhysicalDeviceProperties2(physical, &props2);
  maxAllocationSize = maintenance3.maxMemoryAllocationSize;
  findComputeQueue(physical, queueFamily);
  return true;
}

bool VulkanDevice::createDevice(llvm::raw_ostream &errors) {
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{};
  queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queueInfo.queueFamilyIndex = queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  // Timeline semaphores stand for fences (VulkanQueue.cpp).
  VkPhysicalDeviceTimelineSemaphoreFeatures timeline{};
  timeline.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES;
  timeline.timelineSemaphore = VK_TRUE;
  VkPhysicalDevice8BitStorageFeatures storage8{};
  storage8.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES;
  storage8.storageBuffer8BitAccess = VK_TRUE;
  storage8.pNext = &timeline;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = &storage8;
  features.features.shaderInt64 = VK_TRUE;
  // A SPIR-V kernel of the user's that indexes past its bindings must not
  // take the run down with it.
  VkPhysicalDeviceFeatures supported;
  vkGetPhysicalDeviceFeatures(physical, &supported);
  features.features.robustBufferAccess = supported.robustBufferAccess;
  const char *extensions[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
  VkDeviceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  info.pNext = &features;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queueInfo;
  info.enabledExtensionCount = 1;
  info.ppEnabledExtensionNames = extensions;
  if (VkResult result = vkCreateDevice(physical, &info, nullptr, &device)) {
    errors << "cannot create the Vulkan device (VkResult " << result << ")\n";
    device = VK_NULL_HANDLE;
    return false;
  }
  vkGetDeviceQueue(device, queueFamily, 0, &queue);
  pushDescriptorSet = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(
      vkGetDeviceProcAddr(device, "vkCmdPushDescriptorSetKHR"));
  VkCommandPoolCreateInfo poolInfo{};
  poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = queueFamily;
  VkFenceCreateInfo fenceInfo{};
  fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  if (!pushDescriptorSet ||
      vkCreateCommandPool(device, &poolInfo, nullptr, &commandPool) ||
      vkCreateFence(device, &fenceInfo, nullptr, &fence)) {
    errors << "cannot create the Vulkan command pool and fence\n";
    return false;
  }
  return true;
}

ComputePipelineResult streamhal::exec::createComputePipeline(
    VkDevice device, ArrayRef<VkDescriptorSetLayoutBinding> bindings,
    uint32_t pushConstantBytes, ArrayRef<uint32_t> code, const char *entryName,
    VkDescriptorSetLayout &setLayout, VkPipelineLayout &layout,
    VkShaderModule &shader, VkPipeline &pipeline) {
  VkDescriptorSetLayoutCreateInfo setInfo{};
  setInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  setInfo.bindingCount = bindings.size();
  setInfo.pBindings = bindings.data();
  VkPushConstantRange constants{VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                pushConstantBytes};
  VkPipelineLayoutCreateInfo layoutInfo{};
  layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &setLayout;
  layoutInfo.pushConstantRangeCount = pushConstantBytes > 0 ? 1 : 0;
  layoutInfo.pPushConstantRanges = &constants;
  VkShaderModuleCreateInfo shaderInfo{};
  shaderInfo.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  shaderInfo.codeSize = code.size() * sizeof(uint32_t);
  shaderInfo.pCode = code.data();
  if (vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &setLayout) ||
      vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout) ||
      vkCreateShaderModule(device, &shaderInfo, nullptr, &shader))
    return ComputePipelineResult::LayoutFailed;
  VkComputePipelineCreateInfo pipelineInfo{};
  pipelineInfo.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  pipelineInfo.stage.sType =
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = shader;
  pipelineInfo.stage.pName = entryName;
  pipelineInfo.layout = layout;
  if (vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipelineInfo,
                               nullptr, &pipeline))
    return ComputePipelineResult::PipelineFailed;
  return ComputePipelineResult::Created;
}

bool VulkanDevice::createModelPipeline(llvm::raw_ostream &errors) {
  // Every slot and the parameter block: one push-descriptor set, so that a
  // HAL push_descriptor_set is a vkCmdPushDescriptorSetKHR.
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (uint32_t binding = 0; binding <= kModelParameterBinding; ++binding) {
    VkDescriptorSetLayoutBinding entry{};
    entry.binding = binding;
    entry.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    entry.descriptorCount = 1;
    entry.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    bindings.push_back(entry);
  }
  ComputePipelineResult result = createComputePipeline(
      device, bindings, kPushConstantBytes, kModelKernelSpirv, "main",
      setLayout, pipelineLayout, modelShader, modelPipeline);
  if (result == ComputePipelineResult::LayoutFailed) {
    errors << "cannot create the model kernel's layout\n";
    return false;
  }
  if (result == ComputePipelineResult::PipelineFailed) {
    errors << "cannot create the model kernel's pipeline\n";
    return false;
  }
  return true;
}

std::unique_ptr<VulkanDevice>
VulkanDevice::open(const VulkanDeviceOptions &options, bool listOnly,
                   llvm::raw_ostream &errors) {
  std::unique_ptr<VulkanDevice> opened(new VulkanDevice());
  opened->validate = options.validate;
  opened->checkWrites = options.checkWrites;
  opened->allowPartialWrites = options.allowPartialWrites;
  if (!opened->createInstance(errors))
    return nullptr;
  if (listOnly)
    return opened;
  if (!opened->selectPhysicalDevice(options.selector, errors) ||
      !opened->createDevice(errors) || !opened->createModelPipeline(errors))
    return nullptr;
  // Messages while opening (a layer's complaint about the setup) are
  // problems too.
  std::vector<Message> pending = opened->takeMessages();
  if (!pending.empty()) {
    for (const Message &message : pending)
      errors << "Vulkan validation: " << message.text << "\n";
    return nullptr;
  }
  return opened;
}

VulkanDevice::~VulkanDevice() {
  if (device) {
    vkDeviceWaitIdle(device);
    // Kept recordings free their command buffers and memory first.
    memoizedWork.clear();
    for (auto &entry : kernelPipelines) {
      const KernelPipeline &kernel = entry.second;
      vkDestroyPipeline(device, kernel.pipeline, nullptr);
      vkDestroyShaderModule(device, kernel.shader, nullptr);
      vkDestroyPipelineLayout(device, kernel.layout, nullptr);
      vkDestroyDescriptorSetLayout(device, kernel.setLayout, nullptr);
    }
    vkDestroyPipeline(device, modelPipeline, nullptr);
    vkDestroyShaderModule(device, modelShader, nullptr);
    vkDestroyPipelineLayout(device, pipelineLayout, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
    vkDestroyFence(device, fence, nullptr);
    vkDestroyCommandPool(device, commandPool, nullptr);
    vkDestroyDevice(device, nullptr);
  }
  if (messenger) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy)
      destroy(instance, messenger, nullptr);
  }
  if (instance)
    vkDestroyInstance(instance, nullptr);
}

std::string VulkanDevice::getName() const { return properties.deviceName; }

void VulkanDevice::addMessage(Message message) {
  std::lock_guard<std::mutex> lock(messagesMutex);
  messages.push_back(std::move(message));
}

std::vector<VulkanDevice::Message> VulkanDevice::takeMessages() {
  std::lock_guard<std::mutex> lock(messagesMutex);
  return std::exchange(messages, {});
}

unsigned VulkanDevice::reportLateProblems(llvm::raw_ostream &os) {
  std::vector<Message> pending = takeMessages();
  for (const Message &message : pending)
    os << "error: Vulkan validation: " << message.text << "\n";
  return pending.size();
}

bool streamhal::exec::hasVulkanDevice() { return true; }

std::shared_ptr<Device>
streamhal::exec::createVulkanDevice(const VulkanDeviceOptions &options,
                                    llvm::raw_ostream &errors) {
  return VulkanDevice::open(options, /*listOnly=*/false, errors);
}

LogicalResult
streamhal::exec::listVulkanDevices(const VulkanDeviceOptions &options,
                                   llvm::raw_ostream &os,
                                   llvm::raw_ostream &errors) {
  std::unique_ptr<VulkanDevice> opened =
      VulkanDevice::open(options, /*listOnly=*/true, errors);
  if (!opened)
    return failure();
  opened->listPhysicalDevices(os);
  return success();
}
